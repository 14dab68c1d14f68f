/* Unit tests: the boot's plan (init/boot_plan.c), decided once from the command
 * line: the root's kind, where a network root's location comes from, and
 * what net/ is given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "init/bootargs.h"
#include "init/boot_plan.h"

static struct boot_args args;
static struct boot_plan plan;

static void plan_of(const char *line)
{
	bootargs_free(&args);
	bootargs_init(&args);
	assert_int_equal(bootargs_parse(line, NULL, &args), 0);
	boot_plan_make(&args, &plan);
}

static void disk_roots(void **state)
{
	(void)state;
	plan_of("root=/dev/vda1 ro");
	assert_int_equal(plan.root_kind, ROOT_KIND_DISK);
	assert_false(plan.neednet);
	assert_null(plan.net.iscsi);
	/* No /proc/vmcore on the machine running the tests. */
	assert_false(plan.capture);
	plan_of("root=LABEL=r rd.neednet=1");
	assert_int_equal(plan.root_kind, ROOT_KIND_DISK);
	assert_true(plan.neednet);
	/* root=/dev/root without netroot=dhcp is not dracut's iSCSI form. */
	plan_of("root=/dev/root");
	assert_int_equal(plan.root_kind, ROOT_KIND_DISK);
}

static void nfs_roots(void **state)
{
	(void)state;
	plan_of("root=nfs:198.51.100.1:/srv/root rw rd.timeout=40");
	assert_int_equal(plan.root_kind, ROOT_KIND_NFS);
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_SPEC);
	assert_string_equal(plan.net.root.spec, "nfs:198.51.100.1:/srv/root");
	assert_string_equal(plan.net.root.spec_word, "root=");
	assert_false(plan.net.root.nfs4);
	assert_true(plan.net.read_write);
	assert_int_equal(plan.net.timeout_sec, 40);
	/* The iSCSI credentials reach nothing but an iSCSI root. */
	assert_null(plan.net.iscsi);
	plan_of("root=/dev/nfs nfsroot=198.51.100.1:/r,vers=3");
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_NFSROOT);
	assert_string_equal(plan.net.root.spec, "198.51.100.1:/r,vers=3");
	plan_of("root=/dev/nfs");
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_DHCP);
	assert_true(plan.net.root.kernel_default);
	plan_of("root=UUID=x netroot=nfs4:198.51.100.1:/r");
	assert_int_equal(plan.root_kind, ROOT_KIND_NFS);
	assert_string_equal(plan.net.root.spec_word, "netroot=");
	assert_true(plan.net.root.nfs4);
	/* netroot=nfs4 alone names the protocol: the location comes from DHCP. */
	plan_of("root=dhcp netroot=nfs4");
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_DHCP);
	assert_true(plan.net.root.nfs4);
	plan_of("ip=dhcp");
	assert_int_equal(plan.root_kind, ROOT_KIND_NFS);
	assert_false(plan.net.read_write);
}

static void iscsi_roots(void **state)
{
	(void)state;
	plan_of("netroot=iscsi:198.51.100.1::::iqn.x rd.iscsi.password=pw");
	assert_int_equal(plan.root_kind, ROOT_KIND_ISCSI);
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_SPEC);
	assert_true(plan.net.root.root_is_lun);
	assert_non_null(plan.net.iscsi);
	assert_string_equal(plan.net.iscsi->password, "pw");
	/* dracut's iSCSI root by DHCP. */
	plan_of("root=/dev/root netroot=dhcp ip=lan0:dhcp");
	assert_int_equal(plan.root_kind, ROOT_KIND_ISCSI);
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_DHCP);
	assert_true(plan.net.root.netroot_dhcp);
	plan_of("root=LABEL=r rd.iscsi.target.name=iqn.t rd.iscsi.target.ip=198.51.100.1");
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_PARAMS);
	assert_false(plan.net.root.root_is_lun);
	assert_string_equal(plan.net.root.root, "LABEL=r");
	plan_of("rd.iscsi.firmware");
	assert_int_equal(plan.net.root.from, NET_ROOT_FROM_FIRMWARE);
	/* netroot=dhcp with root= naming a filesystem: it is on the LUN DHCP names. */
	plan_of("root=/dev/vda1 netroot=dhcp");
	assert_int_equal(plan.root_kind, ROOT_KIND_ISCSI);
}

static int teardown(void **state)
{
	(void)state;
	bootargs_free(&args);
	return 0;
}

#define LIVE_HASH "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

/* root=live:URL is a root of its own, before NFS's SERVER:/PATH and iSCSI by DHCP. */
static void live_plan(void **state)
{
	(void)state;
	plan_of("root=live:http://198.51.100.1:8080/root.squashfs ip=dhcp rd.live.sha256=" LIVE_HASH
		" rd.live.overlay.size=256m");
	assert_int_equal(plan.root_kind, ROOT_KIND_LIVE);
	assert_string_equal(boot_plan_root_kind_word(plan.root_kind), "live");
	assert_string_equal(plan.net.root.root, "live:http://198.51.100.1:8080/root.squashfs");
	assert_null(plan.net.iscsi);
	assert_false(plan.neednet);
	assert_string_equal(args.live.sha256, LIVE_HASH);
	assert_string_equal(args.live.overlay_size, "256m");
	assert_false(args.live.unverified);
	/* Not taken for NFS's SERVER:/PATH, nor for iSCSI with netroot=dhcp. */
	plan_of("root=live:https://[2001:db8::1]/r.img netroot=dhcp rd.live.unverified");
	assert_int_equal(plan.root_kind, ROOT_KIND_LIVE);
	assert_true(args.live.unverified);
	plan_of("root=LABEL=live ip=dhcp");
	assert_int_equal(plan.root_kind, ROOT_KIND_DISK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disk_roots),
		cmocka_unit_test(nfs_roots),
		cmocka_unit_test(iscsi_roots),
		cmocka_unit_test(live_plan),
	};

	bootargs_init(&args);
	return cmocka_run_group_tests(tests, NULL, teardown);
}
