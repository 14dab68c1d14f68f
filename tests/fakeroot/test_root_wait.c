/* Fake-root case: the plan for root=LABEL=, then the device wait, where the
 * disk appears only after its driver is loaded (by coldplug of its virtio
 * device) and the kernel says so by uevent. Nothing is mounted meanwhile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "bootlib/devwait.h"
#include "bootlib/modload.h"
#include "common/modtab.h"
#include "init/boot_plan.h"
#include "init/bootargs.h"
#include "tests/fakeroot/fakeroot.h"

/* virtio_blk needs virtio_ring; the virtio block device's alias asks for it. */
static const char modules_tab[] =
	"m\tvirtio_ring\t/lib/modules/fake/virtio_ring.ko\t-\t\n"
	"m\tvirtio_blk\t/lib/modules/fake/virtio_blk.ko\tvirtio_ring\t\n"
	"a\tvirtio:d00000002v*\tvirtio_blk\n";

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static struct fr_tree tree;

static int tree_fill(void **state)
{
	struct fr_tree *t = &tree;

	(void)state;
	assert_int_equal(fr_tree_make(t), 0);
	assert_int_equal(fr_write(t, "proc/cmdline", "root=LABEL=fakeroot ro rd.timeout=5\n"), 0);
	assert_int_equal(fr_modtab(t, modules_tab), 0);
	assert_int_equal(fr_write(t, "sys/bus/virtio/devices/virtio0/modalias",
				  "virtio:d00000002v00001AF4\n"), 0);
	assert_int_equal(fr_ext4(t, "images/root.img", "fakeroot",
				 "6f1d2b3c-0001-4a5b-8c6d-7e8f9a0b1c2d"), 0);
	return 0;
}

/* What virtio_blk's probe does in the kernel: the disk, then its uevent. */
static const struct fr_disk root_disk = { "vda", 254, 0, "images/root.img" };

static void root_found_after_its_driver(void **state)
{
	const struct fr_tree *t = &tree;
	struct boot_args args;
	struct boot_plan plan;
	struct dev_spec spec;
	struct found_dev dev;
	char calls[4096];
	long long start;
	pid_t kernel;

	(void)state;
	bootargs_init(&args);
	assert_int_equal(bootargs_load(&args), 0);
	boot_plan_make(&args, &plan);
	assert_int_equal(plan.root_kind, ROOT_KIND_DISK);
	assert_false(plan.capture);
	assert_false(plan.neednet);
	assert_int_equal(args.root.timeout_sec, 5);
	assert_int_equal(devspec_parse(args.root.root, &spec), 0);
	assert_int_equal(spec.kind, DEVSPEC_LABEL);
	assert_int_equal(modload_open(MODTAB_PATH), 0);
	/* No disk before its driver: the wait must follow the load. */
	assert_int_equal(devwait_lookup(&spec, &dev), -ENODEV);

	kernel = fr_after_load(t, "virtio_blk.ko", &root_disk);
	start = now_ms();
	assert_int_equal(devwait_find(&spec, args.root.timeout_sec, &dev), 0);
	/* Found by its uevent, not by a look after a quiet period. */
	assert_true(now_ms() - start < 3000);
	assert_int_equal(fr_after_load_join(kernel), 0);
	assert_string_equal(dev.devname, "vda");
	assert_int_equal(dev.major, 254);
	assert_string_equal(dev.info.type, "ext4");
	assert_string_equal(dev.info.label, "fakeroot");

	/* The dependency first; the device's own driver probes in the
	 * background (a host-only image has no early pass). Nothing mounted. */
	fr_calls(t, calls, sizeof(calls));
	assert_string_equal(calls, "finit_module /lib/modules/fake/virtio_ring.ko -\n"
				   "finit_module /lib/modules/fake/virtio_blk.ko async_probe\n");
	modload_close();
	bootargs_free(&args);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(root_found_after_its_driver, tree_fill, fr_tree_teardown),
	};

	(void)argc;
	fr_preload(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
