/* Unit tests: the build host read once (gen/host/hostfacts.c), on a tree
 * laid out like a host: sysfs, mountinfo, mounts, the resume setting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/host/hostfacts.h"
#include "tests/unit/image_fixture.h"

/* A shell command of the fixture that must succeed. */
#define sh(...) assert_int_equal(fixture_sh(__VA_ARGS__), 0)

static bool has(const struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->len; i++)
		if (strcmp(v->items[i], s) == 0)
			return true;
	return false;
}

/* The root on a virtio disk (254:0); a dm-crypt swap (253:0) on the same
 * disk, named by /sys/power/resume. */
static void fake_host(const char *root)
{
	sh("s=%s/sys && d=$s/devices/pci0000:00/0000:00:02.0 && "
	   "mkdir -p $d/virtio1/block/vda $s/dev/block $s/bus/virtio/drivers/virtio_blk "
	   "$s/power $s/module/virtio_blk %s/proc/self && "
	   "ln -s ../../../module/virtio_blk $s/bus/virtio/drivers/virtio_blk/module && "
	   "echo virtio:d00000002v00001AF4 > $d/virtio1/modalias && "
	   "ln -s ../../../../bus/virtio/drivers/virtio_blk $d/virtio1/driver && "
	   "echo 254:0 > $d/virtio1/block/vda/dev && "
	   "ln -s ../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda $s/dev/block/254:0 && "
	   "m=$s/devices/virtual/block/dm-0 && mkdir -p $m/dm $m/slaves && "
	   "echo CRYPT-PLAIN-swap > $m/dm/uuid && echo 253:0 > $m/dev && "
	   "ln -s ../../../../pci0000:00/0000:00:02.0/virtio1/block/vda $m/slaves/vda && "
	   "ln -s ../../devices/virtual/block/dm-0 $s/dev/block/253:0 && "
	   "echo 253:0 > $s/power/resume && "
	   "printf '27 1 254:0 / / rw - ext4 /dev/vda rw\\n' > %s/proc/self/mountinfo && "
	   "printf '/dev/vda / ext4 rw 0 0\\n' > %s/proc/mounts",
	   root, root, root, root);
}

/* eth0's driver is a module, wlan0's built in (its name stands for the
 * module), lo has no device; bond0, br0 and eth0.5 are a bond, a bridge
 * and a VLAN (their modules, as vlan=/bond=/bridge= make them again),
 * dummy0 a virtual interface of another kind (nothing). */
static void fake_nics(const char *root)
{
	sh("s=%s/sys && n=$s/class/net && "
	   "mkdir -p $n/lo $n/eth0/device $n/wlan0/device $s/bus/pci/drivers/e1000e "
	   "$s/bus/pci/drivers/iwlwifi && "
	   "ln -s ../../../../module/e1000e $s/bus/pci/drivers/e1000e/module && "
	   "ln -s ../../../../bus/pci/drivers/e1000e $n/eth0/device/driver && "
	   "ln -s ../../../../bus/pci/drivers/iwlwifi $n/wlan0/device/driver && "
	   "mkdir -p $n/bond0/bonding $n/br0/bridge $n/eth0.5 $n/dummy0 && "
	   "printf 'DEVTYPE=vlan\\nINTERFACE=eth0.5\\n' >$n/eth0.5/uevent && "
	   "printf 'INTERFACE=dummy0\\n' >$n/dummy0/uevent", root);
}

static void reads_every_fact_once(void **state)
{
	char root[] = "/tmp/hostfacts-XXXXXX";
	struct host_facts h;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_host(root);
	fake_nics(root);
	sh("mkdir -p %s/sys/class/iscsi_session/session1", root);
	assert_int_equal(hostfacts_read(&h, root), 0);
	assert_true(h.stack.root_seen);
	assert_string_equal(h.stack.root_fstype, "ext4");
	assert_true(has(&h.stack.root_modules, "virtio_blk"));
	/* The resume device's stack joins the root's: its dm-crypt. */
	assert_int_equal(h.resume_status, 0);
	assert_string_equal(h.resume.spec, "253:0");
	assert_true(has(&h.stack.root_modules, "dm_crypt"));
	assert_false(h.root_nfs);
	assert_true(h.iscsi_session);
	assert_true(h.nics_listed);
	assert_int_equal(h.nic_drivers.len, 5);
	assert_true(has(&h.nic_drivers, "e1000e"));
	assert_true(has(&h.nic_drivers, "iwlwifi"));
	assert_true(has(&h.nic_drivers, "bonding"));
	assert_true(has(&h.nic_drivers, "bridge"));
	assert_true(has(&h.nic_drivers, "8021q"));
	hostfacts_free(&h);
	sh("rm -rf %s", root);
}

static void nfs_root_without_resume_or_nics(void **state)
{
	char root[] = "/tmp/hostfacts-XXXXXX";
	struct host_facts h;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_host(root);
	sh("rm %s/sys/power/resume && printf 'srv:/export / nfs4 rw 0 0\\n' > %s/proc/mounts",
	   root, root);
	assert_int_equal(hostfacts_read(&h, root), 0);
	assert_true(h.root_nfs);
	assert_int_equal(h.resume_status, -ENOENT);
	assert_false(has(&h.stack.root_modules, "dm_crypt"));
	assert_false(h.iscsi_session);
	assert_false(h.nics_listed);
	assert_int_equal(h.nic_drivers.len, 0);
	hostfacts_free(&h);
	sh("rm -rf %s", root);
}

/* Without sysfs the scan itself is impossible: an error, nothing to free. */
static void no_sysfs_is_an_error(void **state)
{
	char root[] = "/tmp/hostfacts-XXXXXX";
	struct host_facts h;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_true(hostfacts_read(&h, root) < 0);
	sh("rm -rf %s", root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_fact_once),
		cmocka_unit_test(nfs_root_without_resume_or_nics),
		cmocka_unit_test(no_sysfs_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
