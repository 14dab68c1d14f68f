/* Unit tests: bootlib/coldplug: which devices a generic image leaves for
 * later (IDE controllers, PS/2 ports) and whose drivers probe before the load returns
 * (virtio disks), read from real modaliases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bootlib/coldplug.h"
#include "bootlib/evloop.h"

/* qemu's pc machine, as its sysfs shows them. */
static const char piix_ide[] = "pci:v00008086d00007010sv00001AF4sd00001100bc01sc01i80";
static const char virtio_blk_pci[] = "pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00";
static const char virtio_scsi_pci[] = "pci:v00001AF4d00001004sv00001AF4sd00000008bc01sc00i00";
static const char virtio_net_pci[] = "pci:v00001AF4d00001000sv00001AF4sd00000001bc02sc00i00";
static const char ahci[] = "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01";
static const char nvme[] = "pci:v00001B36d00000010sv00001AF4sd00001100bc01sc08i02";
static const char vga[] = "pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00";
static const char isa_bridge[] = "pci:v00008086d00007000sv00001AF4sd00001100bc06sc01i00";

static void ide_and_ps2_are_late(void **state)
{
	(void)state;
	assert_true(coldplug_is_late(piix_ide));
	/* qemu's PS/2 keyboard and aux ports. */
	assert_true(coldplug_is_late("serio:ty06pr00id00ex00"));
	assert_true(coldplug_is_late("serio:ty01pr00id00ex00"));
	assert_false(coldplug_is_late(virtio_blk_pci));
	assert_false(coldplug_is_late(ahci));
	assert_false(coldplug_is_late(nvme));
	/* An ISA bridge has subclass 01 too, of another class. */
	assert_false(coldplug_is_late(isa_bridge));
	assert_false(coldplug_is_late("acpi:PNP0700:"));
	assert_false(coldplug_is_late(""));
}

static void virtio_disks_probe_at_once(void **state)
{
	(void)state;
	assert_true(coldplug_is_disk_maker(virtio_blk_pci));
	assert_true(coldplug_is_disk_maker(virtio_scsi_pci));
	/* Real controllers probe in the background: link resets take time. */
	assert_false(coldplug_is_disk_maker(ahci));
	assert_false(coldplug_is_disk_maker(nvme));
	/* A virtio network card on PCI is no storage. */
	assert_false(coldplug_is_disk_maker(virtio_net_pci));
	assert_true(coldplug_is_disk_maker("virtio:d00000002v00001AF4"));
	assert_true(coldplug_is_disk_maker("virtio:d00000008v00001AF4"));
	/* A virtio network card (1) and input device (18) probe in the background. */
	assert_false(coldplug_is_disk_maker("virtio:d00000001v00001AF4"));
	assert_false(coldplug_is_disk_maker("virtio:d00000012v00001AF4"));
	assert_false(coldplug_is_disk_maker(vga));
	assert_false(coldplug_is_disk_maker(isa_bridge));
	assert_false(coldplug_is_disk_maker("serio:ty06pr00id00ex00"));
}

/* Nothing left for later: the quiet period is the long one, and loading
 * the late drivers is a no-op. */
static void no_late_devices_keeps_the_long_quiet(void **state)
{
	(void)state;
	assert_int_equal(evloop_quiet_ms(), EVLOOP_QUIET_MS);
	evloop_load_late();
	assert_int_equal(evloop_quiet_ms(), EVLOOP_QUIET_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ide_and_ps2_are_late),
		cmocka_unit_test(virtio_disks_probe_at_once),
		cmocka_unit_test(no_late_devices_keeps_the_long_quiet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
