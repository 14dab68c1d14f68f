/* Unit tests: the NVMe over TCP root: the connect option string and the
 * kernel's answer (net/nvmf/fabrics.c), the discovery log page
 * (net/nvmf/disclog.c), the rd.nvmf.* words and the host's identity
 * (net/nvmf_args.c), the way out's controller scan (shutdown/nvmfdown.c)
 * and the generator's host check (gen/host/nvmfhost.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/cmdline.h"
#include "gen/host/nvmfhost.h"
#include "net/nvmf/disclog.h"
#include "net/nvmf/fabrics.h"
#include "net/nvmf_args.h"
#include "shutdown/leave.h"
#include "shutdown/nvmfdown.h"

#define HOSTNQN "nqn.2014-08.org.nvmexpress:uuid:3a9c1f6e-0000-4000-8000-00000000b001"
#define HOSTID "3a9c1f6e-0000-4000-8000-00000000b001"

static void target_set(struct nvmf_fabrics_target *t, const char *nqn, const char *addr)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->nqn, sizeof(t->nqn), "%s", nqn);
	snprintf(t->traddr, sizeof(t->traddr), "%s", addr);
	snprintf(t->trsvcid, sizeof(t->trsvcid), "4420");
}

static void options_string(void **state)
{
	struct nvmf_fabrics_host h = { HOSTNQN, HOSTID };
	struct nvmf_fabrics_target t;
	char out[NVMF_FABRICS_OPTIONS_MAX], small[40];
	const char *what = NULL;

	(void)state;
	target_set(&t, NVMF_FABRICS_DISCOVERY_NQN, "2001:db8:5::1");
	assert_int_equal(nvmf_fabrics_options(&h, &t, out, sizeof(out), &what), 0);
	assert_string_equal(out, "nqn=nqn.2014-08.org.nvmexpress.discovery,transport=tcp,"
			    "traddr=2001:db8:5::1,trsvcid=4420,hostnqn=" HOSTNQN ",hostid=" HOSTID);
	snprintf(t.host_traddr, sizeof(t.host_traddr), "198.51.100.2");
	snprintf(t.host_iface, sizeof(t.host_iface), "lan0.5");
	h.id[0] = '\0';
	assert_int_equal(nvmf_fabrics_options(&h, &t, out, sizeof(out), &what), 0);
	assert_non_null(strstr(out, ",hostnqn=" HOSTNQN ",host_traddr=198.51.100.2,host_iface=lan0.5"));
	assert_null(strstr(out, "hostid="));
	/* A value from the network must not add an option of its own. */
	snprintf(t.nqn, sizeof(t.nqn), "nqn.x,duplicate_connect");
	assert_int_equal(nvmf_fabrics_options(&h, &t, out, sizeof(out), &what), -EINVAL);
	assert_string_equal(what, "nqn");
	assert_string_equal(out, "");
	target_set(&t, "nqn.a", "198.51.100.1 ");
	assert_int_equal(nvmf_fabrics_options(&h, &t, out, sizeof(out), &what), -EINVAL);
	assert_string_equal(what, "traddr");
	target_set(&t, "nqn.a", "198.51.100.1");
	t.trsvcid[0] = '\0';
	assert_int_equal(nvmf_fabrics_options(&h, &t, out, sizeof(out), &what), -EINVAL);
	assert_string_equal(what, "trsvcid");
	target_set(&t, "nqn.a", "198.51.100.1");
	assert_int_equal(nvmf_fabrics_options(&h, &t, small, sizeof(small), &what), -ENAMETOOLONG);
}

static void kernel_answer(void **state)
{
	int instance = -1;

	(void)state;
	assert_int_equal(nvmf_fabrics_parse_answer("instance=3,cntlid=1\n", &instance), 0);
	assert_int_equal(instance, 3);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=12,cntlid=65535", &instance), 0);
	assert_int_equal(instance, 12);
	assert_int_equal(nvmf_fabrics_parse_answer("", &instance), -EINVAL);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=,cntlid=1", &instance), -EINVAL);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=-1,cntlid=1", &instance), -EINVAL);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=1", &instance), -EINVAL);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=1,cntlid=2x", &instance), -EINVAL);
	assert_int_equal(nvmf_fabrics_parse_answer("instance=99999999999,cntlid=1", &instance), -EINVAL);
	assert_int_equal(instance, 12);
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A record as Linux's target writes it: strings NUL-padded. */
static void record_put(uint8_t *r, uint8_t trtype, uint8_t adrfam, uint8_t subtype,
		       const char *port, const char *nqn, const char *addr)
{
	r[0] = trtype;
	r[1] = adrfam;
	r[2] = subtype;
	put_le(r + 4, 7, 2);
	put_le(r + 6, 0xffff, 2);
	memcpy(r + 32, port, strlen(port));
	memcpy(r + 256, nqn, strlen(nqn));
	memcpy(r + 512, addr, strlen(addr));
}

static void disclog_page(void **state)
{
	static uint8_t page[4 * NVMF_DISCLOG_RECORD];
	struct nvmf_disclog_entry e;
	uint64_t genctr, numrec;

	(void)state;
	memset(page, 0, sizeof(page));
	put_le(page, 5, 8);
	put_le(page + 8, 3, 8);
	record_put(page + 1024, 3, 2, 2, "4420", "nqn.2026-12.test.lifeboat:root", "2001:db8:5::1");
	record_put(page + 2048, 3, 1, 3, "4420", NVMF_FABRICS_DISCOVERY_NQN, "198.51.100.1");
	/* Space-padded, as the spec writes it, and an injected option. */
	record_put(page + 3072, 3, 1, 2, "4420    ", "nqn.a,hostnqn=nqn.evil", "198.51.100.1   ");
	assert_int_equal(nvmf_disclog_header(page, 100, &genctr, &numrec), -EINVAL);
	assert_int_equal(nvmf_disclog_header(page, sizeof(page), &genctr, &numrec), 0);
	assert_int_equal(genctr, 5);
	assert_int_equal(numrec, 3);
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), 0, &e), 0);
	assert_true(nvmf_disclog_usable(&e));
	assert_string_equal(e.subnqn, "nqn.2026-12.test.lifeboat:root");
	assert_string_equal(e.traddr, "2001:db8:5::1");
	assert_string_equal(e.trsvcid, "4420");
	assert_int_equal(e.portid, 7);
	assert_int_equal(e.cntlid, 0xffff);
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), 1, &e), 0);
	assert_false(nvmf_disclog_usable(&e));    /* a discovery controller */
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), 2, &e), 0);
	assert_string_equal(e.traddr, "198.51.100.1");
	assert_string_equal(e.trsvcid, "4420");
	assert_false(e.strings_ok);
	assert_false(nvmf_disclog_usable(&e));
	/* Bounds: past the page, a page cut inside a record, an empty one. */
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), 3, &e), -ERANGE);
	assert_int_equal(nvmf_disclog_entry(page, 3 * NVMF_DISCLOG_RECORD - 1, 1, &e), -ERANGE);
	assert_int_equal(nvmf_disclog_entry(page, 0, 0, &e), -ERANGE);
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), UINT64_MAX, &e), -ERANGE);
	/* An empty address is not usable. */
	memset(page + 1024 + 512, 0, 256);
	assert_int_equal(nvmf_disclog_entry(page, sizeof(page), 0, &e), 0);
	assert_false(nvmf_disclog_usable(&e));
}

static void discover_words(void **state)
{
	struct nvmf_args a;
	struct cmdline_owner o;
	struct nvmf_fabrics_target t;
	char why[512];

	(void)state;
	memset(&a, 0, sizeof(a));
	o = nvmf_args_cmdline(&a);
	assert_false(nvmf_args_wanted(&a));
	assert_int_equal(cmdline_parse("rd.nvmf.hostnqn=" HOSTNQN " nvmf.hostid=" HOSTID
				       " rd.nvmf.discover=tcp,2001:db8:5::1,,4420"
				       " nvmf.discover=tcp,198.51.100.1 rd.nvmf.discover=tcp,198.51.100.1",
				       NULL, &o, 1), 0);
	assert_string_equal(a.hostnqn, HOSTNQN);
	assert_string_equal(a.hostid, HOSTID);
	assert_int_equal(a.n_discover, 2);
	assert_true(nvmf_args_wanted(&a));
	assert_int_equal(cmdline_parse("rd.nonvmf", NULL, &o, 1), 0);
	assert_false(nvmf_args_wanted(&a));

	assert_int_equal(nvmf_args_discover_parse(a.discover[0], &t, why, sizeof(why)), 0);
	assert_string_equal(t.nqn, NVMF_FABRICS_DISCOVERY_NQN);
	assert_string_equal(t.traddr, "2001:db8:5::1");
	assert_string_equal(t.host_traddr, "");
	assert_string_equal(t.trsvcid, "4420");
	assert_int_equal(nvmf_args_discover_parse("tcp,[2001:db8:5::1],[2001:db8:5::2],8009", &t,
						  why, sizeof(why)), 0);
	assert_string_equal(t.traddr, "2001:db8:5::1");
	assert_string_equal(t.host_traddr, "2001:db8:5::2");
	assert_string_equal(t.trsvcid, "8009");
	assert_int_equal(nvmf_args_discover_parse("tcp,198.51.100.1", &t, why, sizeof(why)), 0);
	assert_string_equal(t.trsvcid, "4420");
	assert_int_equal(nvmf_args_discover_parse("fc,auto", &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "only tcp"));
	assert_int_equal(nvmf_args_discover_parse("tcp", &t, why, sizeof(why)), -EINVAL);
	assert_int_equal(nvmf_args_discover_parse("tcp,,", &t, why, sizeof(why)), -EINVAL);
	assert_int_equal(nvmf_args_discover_parse("tcp,a,b,c,d", &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "TRANSPORT,ADDRESS"));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void host_identity(void **state)
{
	char dir[] = "/tmp/test-nvmf-XXXXXX", path[128], why[512];
	struct nvmf_args a;
	struct nvmf_fabrics_host h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	memset(&a, 0, sizeof(a));
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "rd.nvmf.hostnqn="));
	/* The image's files. */
	snprintf(path, sizeof(path), "%s/hostnqn", dir);
	write_file(path, "nqn.2014-08.org.nvmexpress:uuid:11111111-2222-3333-4444-555555555555\n");
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), 0);
	assert_string_equal(h.id, "11111111-2222-3333-4444-555555555555");
	snprintf(path, sizeof(path), "%s/hostid", dir);
	write_file(path, HOSTID "\n");
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), 0);
	assert_string_equal(h.id, HOSTID);
	/* The command line first. */
	snprintf(a.hostnqn, sizeof(a.hostnqn), "nqn.2026-12.test.lifeboat:host");
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), 0);
	assert_string_equal(h.nqn, "nqn.2026-12.test.lifeboat:host");
	assert_string_equal(h.id, HOSTID);
	snprintf(a.hostid, sizeof(a.hostid), "not-a-uuid");
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "rd.nvmf.hostid="));
	snprintf(a.hostnqn, sizeof(a.hostnqn), "host,transport=rdma");
	assert_int_equal(nvmf_args_host(&a, dir, &h, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "rd.nvmf.hostnqn="));
	unlink(path);
	snprintf(path, sizeof(path), "%s/hostnqn", dir);
	unlink(path);
	rmdir(dir);
}

static void mkpath(const char *root, const char *rel, const char *text)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	if (text)
		write_file(path, text);
	else
		mkdir(path, 0700);
}

static const char *busy_name;

static bool busy_one(const char *name)
{
	return busy_name && strcmp(name, busy_name) == 0;
}

static void way_out_scan(void **state)
{
	char root[] = "/tmp/test-nvmfdown-XXXXXX", cmd[128], name[64];
	struct nvmfdown_set set;

	(void)state;
	assert_true(nvmfdown_is_namespace("nvme0n1"));
	assert_true(nvmfdown_is_namespace("nvme12n34"));
	assert_false(nvmfdown_is_namespace("nvme0c0n1"));
	assert_false(nvmfdown_is_namespace("nvme0n1p1"));
	assert_false(nvmfdown_is_namespace("nvme0"));
	assert_false(nvmfdown_is_namespace("nvme-subsys0"));
	assert_false(nvmfdown_is_namespace("nvmen1"));
	assert_non_null(mkdtemp(root));
	assert_int_equal(nvmfdown_scan(root, &set), 0);
	assert_int_equal(set.len, 0);
	assert_false(nvmfhost_has_tcp(root));
	mkpath(root, "class/nvme/nvme0/transport", "pcie\n");
	mkpath(root, "class/nvme/nvme1/transport", "tcp\n");
	mkpath(root, "class/nvme/nvme1/subsysnqn", "nqn.2026-12.test.lifeboat:root\n");
	mkpath(root, "class/nvme/nvme1/address", "traddr=2001:db8:5::1,trsvcid=4420\n");
	mkpath(root, "class/nvme/nvme1/nvme1c1n1", NULL);
	mkpath(root, "class/nvme-subsystem/nvme-subsys0/nvme0", NULL);
	mkpath(root, "class/nvme-subsystem/nvme-subsys1/nvme1", NULL);
	mkpath(root, "class/nvme-subsystem/nvme-subsys1/nvme1n1", NULL);
	assert_true(nvmfhost_has_tcp(root));
	{
		struct nvmfhost_conn conn;

		/* A second controller to the same port gives no second word; an
		 * address with a space in it gives none. */
		mkpath(root, "class/nvme/nvme2/transport", "tcp\n");
		mkpath(root, "class/nvme/nvme2/address", "traddr=2001:db8:5::1,trsvcid=4420,src_addr=2001:db8:5::2\n");
		mkpath(root, "class/nvme/nvme3/transport", "tcp\n");
		mkpath(root, "class/nvme/nvme3/address", "traddr=198.51.100.31,trsvcid=4420,host_traddr=198.51.100.32\n");
		mkpath(root, "class/nvme/nvme4/transport", "tcp\n");
		mkpath(root, "class/nvme/nvme4/address", "traddr=198.51.100.9 x,trsvcid=4420\n");
		mkpath(root, "class/nvme/nvme1/hostnqn", HOSTNQN "\n");
		mkpath(root, "class/nvme/nvme1/hostid", HOSTID "\n");
		mkpath(root, "class/nvme/nvme2/hostnqn", HOSTNQN "\n");
		mkpath(root, "class/nvme/nvme2/hostid", HOSTID "\n");
		mkpath(root, "class/nvme/nvme3/hostnqn", HOSTNQN "\n");
		mkpath(root, "class/nvme/nvme3/hostid", HOSTID "\n");
		assert_int_equal(nvmfhost_conn_read(root, &conn), 4);
		assert_non_null(strstr(conn.words, "rd.nvmf.discover=tcp,2001:db8:5::1,,4420"));
		assert_non_null(strstr(conn.words, "rd.nvmf.discover=tcp,198.51.100.31,198.51.100.32,4420"));
		assert_null(strstr(conn.words, "198.51.100.9"));
		assert_null(strstr(strstr(conn.words, "2001:db8:5::1") + 1, "2001:db8:5::1"));
		assert_string_equal(conn.hostnqn, HOSTNQN);
		assert_string_equal(conn.hostid, HOSTID);
		snprintf(cmd, sizeof(cmd), "rm -rf %s/class/nvme/nvme[234]", root);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(nvmfdown_scan(root, &set), 0);
	assert_int_equal(set.len, 1);
	assert_string_equal(set.ctrls[0].name, "nvme1");
	assert_string_equal(set.ctrls[0].nqn, "nqn.2026-12.test.lifeboat:root");
	assert_string_equal(set.ctrls[0].address, "traddr=2001:db8:5::1,trsvcid=4420");
	assert_string_equal(set.ctrls[0].subsys, "nvme-subsys1");
	busy_name = NULL;
	assert_int_equal(nvmfdown_busy(root, &set.ctrls[0], busy_one, name, sizeof(name)), 0);
	busy_name = "nvme1c1n1";   /* a hidden path is never asked */
	assert_int_equal(nvmfdown_busy(root, &set.ctrls[0], busy_one, name, sizeof(name)), 0);
	busy_name = "nvme1n1";
	assert_int_equal(nvmfdown_busy(root, &set.ctrls[0], busy_one, name, sizeof(name)), 1);
	assert_string_equal(name, "nvme1n1");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* The init leaves the way out for a root over NVMe/TCP, not for one on a
 * PCIe NVMe disk, native multipath's heads included. */
static void way_out_left_for_tcp(void **state)
{
	char root[] = "/tmp/test-nvmfleave-XXXXXX", path[256], cmd[128];

	(void)state;
	assert_non_null(mkdtemp(root));
	mkpath(root, "devices/virtual/nvme-subsystem/nvme-subsys0/nvme0/transport", "pcie\n");
	mkpath(root, "devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", NULL);
	mkpath(root, "devices/virtual/nvme-subsystem/nvme-subsys1/nvme2/transport", "pcie\n");
	mkpath(root, "devices/virtual/nvme-subsystem/nvme-subsys1/nvme1/transport", "tcp\n");
	mkpath(root, "devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1", NULL);
	snprintf(path, sizeof(path), "%s/devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1", root);
	assert_true(nvmfdown_is_tcp_disk(path));
	assert_true(shutdown_leave_env_needed(path, false));
	snprintf(path, sizeof(path), "%s/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", root);
	assert_false(nvmfdown_is_tcp_disk(path));
	assert_false(shutdown_leave_env_needed(path, false));
	assert_true(shutdown_leave_env_needed("/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme1n1", false));
	assert_false(shutdown_leave_env_needed("/sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", false));
	assert_false(nvmfdown_is_tcp_disk("nvme-subsystem"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_string),
		cmocka_unit_test(kernel_answer),
		cmocka_unit_test(disclog_page),
		cmocka_unit_test(discover_words),
		cmocka_unit_test(host_identity),
		cmocka_unit_test(way_out_scan),
		cmocka_unit_test(way_out_left_for_tcp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
