/* Unit tests: iSCSI root: RFC 4173 root paths, rd.iscsi.*, the iBFT in sysfs,
 * the initiator name, LUN disks in sysfs, iscsistart's exit statuses. */
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

#include "init/bootargs.h"
#include "init/boot_plan.h"
#include "net/iscsi/ibft.h"
#include "net/iscsi/iscsi_lun.h"
#include "net/iscsi/iscsistart.h"
#include "net/iscsi/rfc4173.h"
#include "net/iscsi_conf.h"

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

/* ---- RFC 4173 ---- */

static void rfc4173_full(void **state)
{
	struct iscsi_target t;

	(void)state;
	assert_int_equal(rfc4173_parse("iscsi:198.51.100.1:6:3261:1:iqn.2026-02.test:root", &t), 0);
	assert_string_equal(t.server, "198.51.100.1");
	assert_int_equal(t.port, 3261);
	assert_true(t.lun_given);
	assert_int_equal(t.lun, 1);
	assert_string_equal(t.name, "iqn.2026-02.test:root");
	assert_string_equal(t.chap.username, "");
}

static void rfc4173_empty_fields(void **state)
{
	struct iscsi_target t;

	(void)state;
	assert_int_equal(rfc4173_parse("iscsi:::::iqn.2026-02.test:a:b", &t), 0);
	assert_string_equal(t.server, "");
	assert_int_equal(t.port, 0);
	assert_false(t.lun_given);
	assert_string_equal(t.name, "iqn.2026-02.test:a:b");
	assert_int_equal(rfc4173_parse("iscsi:[2001:db8::1]::::iqn.x:y", &t), 0);
	assert_string_equal(t.server, "2001:db8::1");
	assert_string_equal(t.name, "iqn.x:y");
}

static void rfc4173_lun_hex(void **state)
{
	struct iscsi_target t;

	(void)state;
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::1a:iqn.x", &t), 0);
	assert_int_equal(t.lun, 0x1a);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::4752-3A4F-6b7e-2F99:iqn.x", &t), 0);
	assert_true(t.lun == 0x47523A4F6b7e2F99ULL);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::1--2:iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::-2:iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::12345678901234567:iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:::xyz:iqn.x", &t), -EINVAL);
}

static void rfc4173_credentials(void **state)
{
	struct iscsi_target t;

	(void)state;
	assert_int_equal(rfc4173_parse("iscsi:alice:s3cret@10.0.0.1::::iqn.x:y", &t), 0);
	assert_string_equal(t.chap.username, "alice");
	assert_string_equal(t.chap.password, "s3cret");
	assert_string_equal(t.chap.in_username, "");
	assert_string_equal(t.server, "10.0.0.1");
	assert_int_equal(rfc4173_parse("iscsi:a:b:c:d@10.0.0.1::::iqn.x", &t), 0);
	assert_string_equal(t.chap.in_username, "c");
	assert_string_equal(t.chap.in_password, "d");
	/* A password may hold '@': the last one ends the credentials. */
	assert_int_equal(rfc4173_parse("iscsi:a:p@ss@10.0.0.1::::iqn.x", &t), 0);
	assert_string_equal(t.chap.password, "p@ss");
	assert_int_equal(rfc4173_parse("iscsi:a@10.0.0.1::::iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:a:b:c@10.0.0.1::::iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi::b@10.0.0.1::::iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:a:b:c:@10.0.0.1::::iqn.x", &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:a:b:c:d:e@10.0.0.1::::iqn.x", &t), -EINVAL);
	/* A failed parse leaves no secret behind. */
	assert_string_equal(t.chap.username, "");
}

static void rfc4173_malformed(void **state)
{
	static const char *const bad[] = {
		"nfs:10.0.0.1:/x", "iscsi:", "iscsi:10.0.0.1", "iscsi:10.0.0.1::::",
		"iscsi:10.0.0.1:::iqn.x", "iscsi:10.0.0.1::0::iqn.x", "iscsi:10.0.0.1::65536::iqn.x",
		"iscsi:10.0.0.1::x1::iqn.x", "iscsi:10.0.0.1::::iqn x", "iscsi:10.0.0.1::::iqn;x",
		"iscsi:[::1::::iqn.x", "iscsi:[]::::iqn.x", "iscsi:a/b::::iqn.x",
	};
	struct iscsi_target t;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rfc4173_parse(bad[i], &t), -EINVAL);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:17:::iqn.x", &t), -EPROTONOSUPPORT);
	assert_int_equal(rfc4173_parse("iscsi:10.0.0.1:6:::iqn.x", &t), 0);
}

static void rfc4173_too_long(void **state)
{
	char text[600];
	struct iscsi_target t;

	(void)state;
	snprintf(text, sizeof(text), "iscsi:10.0.0.1::::iqn.%0300d", 0);
	assert_int_equal(rfc4173_parse(text, &t), -ENAMETOOLONG);
}

/* ---- rd.iscsi.* and which target ---- */

/* What net/ is given of a's words (net/net.h), as init/boot_plan.c decides it. */
static struct boot_plan plan;
#define RQ(a) (boot_plan_make(&(a), &plan), &plan.net)

/* a holds an earlier parse, or bootargs_init's: it is freed first. */
static void args_from(struct boot_args *a, const char *line)
{
	bootargs_free(a);
	bootargs_init(a);
	assert_int_equal(bootargs_parse(line, NULL, a), 0);
}

static void conf_wanted(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	args_from(&a, "root=LABEL=r netroot=iscsi:10.0.0.1::::iqn.x");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "root=iscsi:10.0.0.1::::iqn.x");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "root=UUID=1234 netroot=dhcp");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	assert_true(RQ(a)->root.from == NET_ROOT_FROM_DHCP);
	args_from(&a, "rd.iscsi.firmware");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	assert_false(RQ(a)->root.from == NET_ROOT_FROM_DHCP);
	args_from(&a, "root=dhcp");
	assert_false(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "root=/dev/vda1");
	assert_false(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "netroot=dhcp");
	assert_false(RQ(a)->root.kind == NET_ROOT_ISCSI);
	/* dracut's iSCSI root by DHCP: the LUN's disk is the root. */
	args_from(&a, "root=/dev/root netroot=dhcp ip=lan0:dhcp rd.iscsi.initiator=iqn.x");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	assert_true(RQ(a)->root.from == NET_ROOT_FROM_DHCP);
	args_from(&a, "root=iscsi netroot=dhcp");
	assert_true(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "root=/dev/root");
	assert_false(RQ(a)->root.kind == NET_ROOT_ISCSI);
	args_from(&a, "root=nfs:10.0.0.1:/x");
	assert_false(RQ(a)->root.kind == NET_ROOT_ISCSI);
	/* Which disk is the root: the LUN's, or the filesystem root= names. */
	args_from(&a, "netroot=iscsi:10.0.0.1::::iqn.x");
	assert_true(RQ(a)->root.root_is_lun);
	args_from(&a, "root=iscsi:10.0.0.1::::iqn.x");
	assert_true(RQ(a)->root.root_is_lun);
	args_from(&a, "root=LABEL=r netroot=iscsi:10.0.0.1::::iqn.x");
	assert_false(RQ(a)->root.root_is_lun);
	/* The firmware's table comes before the command line's target. */
	args_from(&a, "rd.iscsi.firmware netroot=iscsi:10.0.0.1::::iqn.x");
	assert_int_equal(RQ(a)->root.from, NET_ROOT_FROM_FIRMWARE);
	bootargs_free(&a);
}

static void conf_target_sources(void **state)
{
	struct boot_args a;
	struct iscsi_target t;
	char why[300];

	(void)state;
	bootargs_init(&a);
	args_from(&a, "netroot=iscsi:10.0.0.1::::iqn.a root=iscsi:10.0.0.2::::iqn.b");
	assert_int_equal(iscsi_conf_target(RQ(a), "iscsi:10.0.0.3::::iqn.c", &t, why, sizeof(why)), 0);
	assert_string_equal(t.name, "iqn.a");
	assert_int_equal(t.port, 3260);
	assert_int_equal(t.group, 1);
	args_from(&a, "root=LABEL=x rd.iscsi.target.name=iqn.d rd.iscsi.target.ip=10.0.0.4 "
		  "rd.iscsi.target.port=3262 rd.iscsi.target.group=2");
	assert_int_equal(iscsi_conf_target(RQ(a), NULL, &t, why, sizeof(why)), 0);
	assert_string_equal(t.name, "iqn.d");
	assert_string_equal(t.server, "10.0.0.4");
	assert_int_equal(t.port, 3262);
	assert_int_equal(t.group, 2);
	args_from(&a, "root=LABEL=x netroot=dhcp");
	assert_int_equal(iscsi_conf_target(RQ(a), "iscsi:10.0.0.3::::iqn.c", &t, why, sizeof(why)), 0);
	assert_string_equal(t.name, "iqn.c");
	assert_int_equal(iscsi_conf_target(RQ(a), "10.0.0.3:/nfs", &t, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "not iscsi:"));
	assert_null(strstr(why, "root=/dev/root"));
	/* root=/dev/root with an NFS root-path: the word that was meant. */
	args_from(&a, "root=/dev/root netroot=dhcp");
	assert_int_equal(iscsi_conf_target(RQ(a), "iscsi:10.0.0.3:::1:iqn.c", &t, why, sizeof(why)), 0);
	assert_string_equal(t.name, "iqn.c");
	assert_int_equal(iscsi_conf_target(RQ(a), "10.0.0.3:/nfs", &t, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "write root=dhcp instead of root=/dev/root"));
	args_from(&a, "rd.iscsi.target.name=iqn.d rd.iscsi.target.port=0");
	assert_int_equal(iscsi_conf_target(RQ(a), NULL, &t, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "rd.iscsi.target.port=0"));
	args_from(&a, "rd.iscsi.target.name=iqn.d rd.iscsi.target.group=x");
	assert_int_equal(iscsi_conf_target(RQ(a), NULL, &t, why, sizeof(why)), -EINVAL);
	bootargs_free(&a);
}

static void conf_target_secrets(void **state)
{
	struct boot_args a;
	struct iscsi_target t;
	char why[300];

	(void)state;
	bootargs_init(&a);
	args_from(&a, "netroot=iscsi:u:pw@10.0.0.1::::iqn.a rd.iscsi.password=other "
		  "rd.iscsi.in.username=tgt rd.iscsi.in.password=back");
	assert_int_equal(iscsi_conf_target(RQ(a), NULL, &t, why, sizeof(why)), 0);
	assert_string_equal(t.chap.username, "u");
	assert_string_equal(t.chap.password, "other");
	assert_string_equal(t.chap.in_username, "tgt");
	assert_string_equal(t.chap.in_password, "back");
	/* A malformed path with a password: the message does not repeat it. */
	args_from(&a, "netroot=iscsi:u:topsecret@10.0.0.1:::zz:iqn.a");
	assert_int_equal(iscsi_conf_target(RQ(a), NULL, &t, why, sizeof(why)), -EINVAL);
	assert_null(strstr(why, "topsecret"));
	assert_non_null(strstr(why, "netroot="));
	bootargs_free(&a);
}

/* dracut's several netroot=iscsi:... words: one target each (a LUN's
 * portals), in order; one word, or root= naming the target, is one. */
static void conf_portals(void **state)
{
	struct boot_args a;
	struct iscsi_target t[ISCSI_PORTALS_MAX];
	char why[300];

	(void)state;
	bootargs_init(&a);
	args_from(&a, "root=UUID=1234 netroot=iscsi:198.51.100.1::::iqn.a "
		  "netroot=iscsi:u:pw@198.51.100.2::3261::iqn.a netroot=iscsi:198.51.100.1::::iqn.a");
	assert_int_equal(iscsi_conf_portals(RQ(a), t, ISCSI_PORTALS_MAX, why, sizeof(why)), 2);
	assert_string_equal(t[0].server, "198.51.100.1");
	assert_int_equal(t[0].port, 3260);
	assert_string_equal(t[1].server, "198.51.100.2");
	assert_int_equal(t[1].port, 3261);
	assert_string_equal(t[1].name, "iqn.a");
	assert_string_equal(t[1].chap.password, "pw");
	assert_int_equal(t[0].group, 1);
	args_from(&a, "root=UUID=1234 netroot=iscsi:198.51.100.1::::iqn.a");
	assert_int_equal(iscsi_conf_portals(RQ(a), t, ISCSI_PORTALS_MAX, why, sizeof(why)), 0);
	/* The firmware's table comes first: the words are not the root's. */
	args_from(&a, "rd.iscsi.firmware netroot=iscsi:198.51.100.1::::iqn.a "
		  "netroot=iscsi:198.51.100.2::::iqn.a");
	assert_int_equal(iscsi_conf_portals(RQ(a), t, ISCSI_PORTALS_MAX, why, sizeof(why)), 0);
	args_from(&a, "netroot=iscsi:198.51.100.1::::iqn.a netroot=iscsi:u:topsecret@198.51.100.2:::zz:iqn.a");
	assert_int_equal(iscsi_conf_portals(RQ(a), t, ISCSI_PORTALS_MAX, why, sizeof(why)), -EINVAL);
	assert_null(strstr(why, "topsecret"));
	assert_int_equal(iscsi_conf_portals(RQ(a), t, 1, why, sizeof(why)), -E2BIG);
	bootargs_free(&a);
}

/* rd.iscsi.param=NAME=VALUE: kept in order for iscsistart's -P; one with
 * a password is wiped with the other secrets after the login. */
static void conf_params(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.iscsi.param=node.conn[0].timeo.noop_out_interval=2 "
					"rd.iscsi.param=node.session.auth.password=pw", NULL, &a), 0);
	assert_int_equal(a.iscsi.n_params, 2);
	assert_string_equal(a.iscsi.params[0], "node.conn[0].timeo.noop_out_interval=2");
	iscsi_conf_forget(&a.iscsi);
	assert_string_equal(a.iscsi.params[0], "node.conn[0].timeo.noop_out_interval=2");
	assert_string_equal(a.iscsi.params[1], "");
	bootargs_free(&a);
	bootargs_init(&a);
	assert_int_not_equal(bootargs_parse("rd.iscsi.param=novalue", NULL, &a), 0);
	assert_int_equal(a.iscsi.n_params, 0);
	bootargs_free(&a);
}

/* ---- the initiator name ---- */

static char tmpdir[64];

static void write_file(const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(tmpdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int tmp_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/lifeboat-iscsi-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int tmp_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void initiator_choice(void **state)
{
	struct boot_args a;
	/* Only the iSCSI words count for the initiator name: no root needed. */
	struct net_request rq = { .net = &a.net, .iscsi = &a.iscsi };
	char out[ISCSI_NAME_MAX], file[300];

	(void)state;
	bootargs_init(&a);
	snprintf(file, sizeof(file), "%s/initiatorname.iscsi", tmpdir);
	write_file("initiatorname.iscsi", "## comment\n#InitiatorName=iqn.no\nInitiatorName=iqn.1993-08.org.debian:01:abc\n");
	args_from(&a, "rd.iscsi.initiator=iqn.cmd:x");
	iscsi_conf_initiator(&rq, "iqn.fw", file, mac, out, sizeof(out));
	assert_string_equal(out, "iqn.cmd:x");
	args_from(&a, "");
	iscsi_conf_initiator(&rq, "iqn.fw", file, mac, out, sizeof(out));
	assert_string_equal(out, "iqn.fw");
	iscsi_conf_initiator(&rq, "", file, mac, out, sizeof(out));
	assert_string_equal(out, "iqn.1993-08.org.debian:01:abc");
	iscsi_conf_initiator(&rq, NULL, "/nonexistent", mac, out, sizeof(out));
	assert_string_equal(out, ISCSI_GENERATED_PREFIX "525400123456");
	write_file("empty.iscsi", "InitiatorName=\n");
	snprintf(file, sizeof(file), "%s/empty.iscsi", tmpdir);
	iscsi_conf_initiator(&rq, NULL, file, mac, out, sizeof(out));
	assert_string_equal(out, ISCSI_GENERATED_PREFIX "525400123456");
	bootargs_free(&a);
}

/* ---- iBFT ---- */

static void ibft_target(void **state)
{
	struct iscsi_target t;
	char dir[300], init[ISCSI_NAME_MAX];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ibft", tmpdir);
	assert_int_equal(ibft_read(dir, &t, init, sizeof(init)), -ENOENT);
	write_file("ibft/initiator/initiator-name", "iqn.fw:init\n");
	write_file("ibft/target0/ip-addr", "198.51.100.1\n");
	write_file("ibft/target0/port", "3260\n");
	write_file("ibft/target0/lun", "01000000\n");
	write_file("ibft/target0/target-name", "iqn.2026-02.test:root\n");
	write_file("ibft/target0/chap-name", "alice\n");
	write_file("ibft/target0/chap-secret", "s3cret\n");
	assert_int_equal(ibft_read(dir, &t, init, sizeof(init)), 0);
	assert_string_equal(init, "iqn.fw:init");
	assert_string_equal(t.server, "198.51.100.1");
	assert_int_equal(t.port, 3260);
	assert_string_equal(t.name, "iqn.2026-02.test:root");
	assert_string_equal(t.chap.username, "alice");
	assert_string_equal(t.chap.password, "s3cret");
	assert_string_equal(t.chap.in_username, "");
	write_file("ibft/target0/ip-addr", "2001:db8::1\n");
	assert_int_equal(ibft_read(dir, &t, init, sizeof(init)), -EAFNOSUPPORT);
	write_file("ibft/target0/ip-addr", "\n");
	assert_int_equal(ibft_read(dir, &t, init, sizeof(init)), -EINVAL);
	write_file("ibft/target0/ip-addr", "198.51.100.1\n");
	write_file("ibft/target0/port", "99999\n");
	assert_int_equal(ibft_read(dir, &t, init, sizeof(init)), 0);
	assert_int_equal(t.port, 0);
}

/* ---- LUN disks in sysfs ---- */

static void lun_disks(void **state)
{
	char class[300], session[64], dev[64];

	(void)state;
	snprintf(class, sizeof(class), "%s/class", tmpdir);
	assert_false(iscsi_lun_session(class, "iqn.x", session, sizeof(session)));
	write_file("class/session3/targetname", "iqn.other\n");
	write_file("class/session4/targetname", "iqn.x\n");
	assert_true(iscsi_lun_session(class, "iqn.x", session, sizeof(session)));
	assert_string_equal(session, "session4");
	/* LUN 0 is tgt's controller: a SCSI device without a disk. */
	write_file("class/session4/device/target2:0:0/2:0:0:0/vendor", "IET\n");
	assert_int_equal(iscsi_lun_disk(class, session, false, 0, dev, sizeof(dev)), -ENOENT);
	write_file("class/session4/device/target2:0:0/2:0:0:2/block/sdc/size", "1\n");
	write_file("class/session4/device/target2:0:0/2:0:0:1/block/sdb/size", "1\n");
	assert_int_equal(iscsi_lun_disk(class, session, false, 0, dev, sizeof(dev)), 0);
	assert_string_equal(dev, "sdb");
	assert_int_equal(iscsi_lun_disk(class, session, true, 2, dev, sizeof(dev)), 0);
	assert_string_equal(dev, "sdc");
	assert_int_equal(iscsi_lun_disk(class, session, true, 5, dev, sizeof(dev)), -ENOENT);
}

static void start_statuses(void **state)
{
	(void)state;
	assert_false(iscsistart_status_transient(24));
	assert_false(iscsistart_status_transient(19));
	assert_true(iscsistart_status_transient(4));
	assert_true(iscsistart_status_transient(8));
	assert_non_null(strstr(iscsistart_status_text(24), "CHAP"));
	assert_non_null(strstr(iscsistart_status_text(99), "above"));
	assert_int_equal(iscsistart_reported_status("iscsistart: initiator reported error (24 - "
						    "iSCSI login failed due to authorization failure)"), 24);
	assert_int_equal(iscsistart_reported_status("iscsistart: initiator reported error (9 - x)"), 9);
	assert_int_equal(iscsistart_reported_status("iscsistart: reported error (x"), -1);
	assert_int_equal(iscsistart_reported_status("iscsistart: Logging into iqn.x"), -1);
	assert_int_equal(iscsistart_reported_status("reported error (99999999999"), -1);
}

/* iscsistart's output as it comes from the pipe: lines split across reads,
 * an overlong line cut, and a last status line without its newline. */
static void start_output_lines(void **state)
{
	static const char *const pieces[] = {
		"iscsistart: Logging into iqn.x 10.0.0.1:3260,1\niscsistart: initiator rep",
		"orted error (19 - iSCSI login failed due to authorization failure)\n",
		"iscsistart: initiator reported error (0 - not a failure)\n",
	};
	struct iscsistart_output o = { .len = 0 };
	char echoed[4096] = "", big[2000];
	const char *last = "\niscsistart: initiator reported error (24 - auth)";
	FILE *echo = fmemopen(echoed, sizeof(echoed), "w");

	(void)state;
	assert_non_null(echo);
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
		iscsistart_output_feed(&o, pieces[i], strlen(pieces[i]), echo);
	assert_int_equal(o.reported, 19);
	/* A line longer than the buffer: cut, and the next one still read. */
	memset(big, 'x', sizeof(big));
	iscsistart_output_feed(&o, big, sizeof(big), echo);
	iscsistart_output_feed(&o, last, strlen(last), echo);
	assert_int_equal(o.reported, 19);
	iscsistart_output_end(&o, echo);
	assert_int_equal(o.reported, 24);
	fclose(echo);
	assert_non_null(strstr(echoed, "Logging into iqn.x 10.0.0.1:3260,1\n"));
	assert_non_null(strstr(echoed, "error (24 - auth)\n"));
	assert_int_equal(strspn(strstr(echoed, "xxx"), "x"), ISCSISTART_LINE_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rfc4173_full),
		cmocka_unit_test(rfc4173_empty_fields),
		cmocka_unit_test(rfc4173_lun_hex),
		cmocka_unit_test(rfc4173_credentials),
		cmocka_unit_test(rfc4173_malformed),
		cmocka_unit_test(rfc4173_too_long),
		cmocka_unit_test(conf_wanted),
		cmocka_unit_test(conf_target_sources),
		cmocka_unit_test(conf_target_secrets),
		cmocka_unit_test(conf_portals),
		cmocka_unit_test(conf_params),
		cmocka_unit_test(initiator_choice),
		cmocka_unit_test(ibft_target),
		cmocka_unit_test(lun_disks),
		cmocka_unit_test(start_statuses),
		cmocka_unit_test(start_output_lines),
	};

	return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
