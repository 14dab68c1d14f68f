/* Unit tests: kernel command line, root=, mount options, uevent parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <sys/mount.h>

#include "init/bootargs.h"
#include "bootlib/devspec.h"
#include "bootlib/uevent.h"
#include "init/mountopts.h"

static void split_quotes_like_the_kernel(void **state)
{
	struct strv v = STRV_INIT;

	(void)state;
	assert_int_equal(cmdline_split("  a=1 b=\"two words\"  \"c=x y\" d\n", &v), 0);
	assert_int_equal(v.len, 4);
	assert_string_equal(v.items[0], "a=1");
	assert_string_equal(v.items[1], "b=two words");
	assert_string_equal(v.items[2], "c=x y");
	assert_string_equal(v.items[3], "d");
	strv_free(&v);
}

static void parse_dracut_names(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(a.root.timeout_sec, ROOT_DEFAULT_TIMEOUT);
	assert_int_equal(bootargs_parse("BOOT_IMAGE=/vmlinuz root=UUID=abc rootfstype=xfs "
				       "rootflags=noatime,nouuid ro init=/bin/sh rd.timeout=7 "
				       "rd.debug rd.driver.pre=a,b rd.driver.pre=c "
				       "rd.driver.blacklist=nouveau quiet", NULL, &a), 0);
	assert_string_equal(a.root.root, "UUID=abc");
	assert_string_equal(a.root.fstype, "xfs");
	assert_string_equal(a.root.flags, "noatime,nouuid");
	assert_string_equal(a.root.init, "/bin/sh");
	assert_int_equal(a.root.rw, ROOT_RW_RO);
	assert_int_equal(a.root.timeout_sec, 7);
	assert_true(a.debug);
	assert_int_equal(a.drivers.pre.len, 3);
	assert_string_equal(a.drivers.pre.items[2], "c");
	assert_true(strv_contains(&a.drivers.blacklist, "nouveau"));
	bootargs_free(&a);
}

static void last_occurrence_wins(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("root=/dev/sda1 ro rd.debug", NULL, &a), 0);
	assert_int_equal(bootargs_parse("root=LABEL=x rw rd.debug=0", NULL, &a), 0);
	assert_string_equal(a.root.root, "LABEL=x");
	assert_int_equal(a.root.rw, ROOT_RW_RW);
	assert_false(a.debug);
	bootargs_free(&a);
}

/* The console's layout and font: dracut's and systemd's names, the
 * image's built-in words (read first) under the kernel's. */
static void vconsole_names(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.vconsole.keymap=de rd.vconsole.font=Lat15-Terminus16", NULL, &a), 0);
	assert_string_equal(a.vconsole.keymap, "de");
	assert_string_equal(a.vconsole.font, "Lat15-Terminus16");
	assert_int_equal(bootargs_parse("vconsole.font=eurlatgr", NULL, &a), 0);
	assert_string_equal(a.vconsole.font, "eurlatgr");
	assert_string_equal(a.vconsole.keymap, "de");
	bootargs_free(&a);
}

static void bad_values_are_reported_not_fatal(void **state)
{
	struct boot_args a;
	char longval[400];

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.timeout=abc root=/dev/vda", NULL, &a), -EINVAL);
	assert_string_equal(a.root.root, "/dev/vda");
	assert_int_equal(a.root.timeout_sec, ROOT_DEFAULT_TIMEOUT);
	assert_int_equal(bootargs_parse("rd.net.timeout.dhcp=86401 rd.net.timeout.carrier=-1", NULL, &a),
			 -ERANGE);
	assert_int_equal(a.net.timeout_dhcp, 0);
	assert_int_equal(a.net.timeout_carrier, 0);
	assert_int_equal(bootargs_parse("rd.net.timeout.carrier=86400", NULL, &a), 0);
	assert_int_equal(a.net.timeout_carrier, 86400);
	memset(longval, 'x', sizeof(longval));
	memcpy(longval, "root=", 5);
	longval[sizeof(longval) - 1] = '\0';
	assert_int_equal(bootargs_parse(longval, NULL, &a), -ENAMETOOLONG);
	assert_string_equal(a.root.root, "/dev/vda");
	bootargs_free(&a);
}

/* Each word has one owner: a second component declaring a word would
 * silently never see it (the first owner in the list takes it). */
static void each_word_has_one_owner(void **state)
{
	static const struct cmdline_word twice[] = { { "rd.luks.uuid", cmdline_set_flag, 0 } };
	struct cmdline_owner owners[BOOTARGS_OWNERS + 1];
	struct boot_args a;
	bool flag = false;

	(void)state;
	bootargs_init(&a);
	bootargs_owners(&a, owners);
	assert_null(cmdline_owners_conflict(owners, BOOTARGS_OWNERS));
	owners[BOOTARGS_OWNERS] = (struct cmdline_owner){ "planted", twice, 1, &flag, NULL };
	assert_string_equal(cmdline_owners_conflict(owners, BOOTARGS_OWNERS + 1), "rd.luks.uuid");
	bootargs_free(&a);
}

/* A word goes to its component's struct only; a word nobody declares
 * reaches the module loader only when it sets a module's parameter. */
static void words_reach_their_component(void **state)
{
	struct boot_args a;

	(void)state;
	bootargs_init(&a);
	assert_int_equal(bootargs_parse("rd.lvm.vg=vg0 rd.md=0 rd.ssh.port=2222 fsck.mode=force "
					"resume=/dev/vdb e1000.debug=2 quiet splash", NULL, &a), 0);
	assert_int_equal(a.stacks.n_vgs, 1);
	assert_string_equal(a.stacks.lvm_vgs[0], "vg0");
	assert_false(a.stacks.md);
	assert_int_equal(a.remote.port, 2222);
	assert_int_equal(a.fsck, FSCK_MODE_FORCE);
	assert_string_equal(a.resume.device, "/dev/vdb");
	assert_int_equal(a.drivers.params.len, 1);
	assert_string_equal(a.drivers.params.items[0], "e1000.debug=2");
	bootargs_free(&a);
}

static void root_spec_forms(void **state)
{
	struct dev_spec s;

	(void)state;
	assert_int_equal(devspec_parse("/dev/vda1", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PATH);
	assert_string_equal(s.value, "vda1");
	assert_int_equal(devspec_parse("LABEL=my root", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_LABEL);
	assert_string_equal(s.value, "my root");
	assert_int_equal(devspec_parse("/dev/disk/by-uuid/1234-ABCD", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_UUID);
	assert_string_equal(s.value, "1234-ABCD");
	assert_int_equal(devspec_parse("PARTUUID=c0ffee00-1", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTUUID);
	assert_int_equal(devspec_parse("/dev/disk/by-partlabel/root", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTLABEL);
	assert_int_equal(devspec_parse("8:2", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_DEVNUM);
	assert_int_equal(s.major, 8);
	assert_int_equal(s.minor, 2);
	assert_int_equal(devspec_parse("", &s), -EINVAL);
	assert_int_equal(devspec_parse("UUID=", &s), -EINVAL);
	assert_int_equal(devspec_parse("8:", &s), -EINVAL);
	assert_int_equal(devspec_parse("sda1", &s), -EINVAL);
	assert_int_equal(devspec_parse("99999:1", &s), -EINVAL);
}

static void root_spec_matching(void **state)
{
	struct blk_info info = { .type = "ext4", .label = "root", .uuid = "abcd-ef01",
				 .partuuid = "c0ffee00-01", .partlabel = "sys" };
	struct dev_spec s;

	(void)state;
	devspec_parse("UUID=ABCD-EF01", &s);
	assert_true(devspec_matches(&s, "vda1", 254, 1, &info));
	assert_false(devspec_matches(&s, "vda1", 254, 1, NULL));
	devspec_parse("LABEL=Root", &s);
	assert_false(devspec_matches(&s, "vda1", 254, 1, &info));  /* labels are case-sensitive */
	devspec_parse("/dev/vda1", &s);
	assert_true(devspec_matches(&s, "vda1", 254, 1, NULL));
	assert_false(devspec_matches(&s, "vda", 254, 0, NULL));
	devspec_parse("254:1", &s);
	assert_true(devspec_matches(&s, "whatever", 254, 1, NULL));
	assert_false(devspec_matches(&s, "whatever", 254, 2, NULL));
	devspec_parse("PARTLABEL=sys", &s);
	assert_true(devspec_matches(&s, "vda1", 254, 1, &info));
	assert_true(devspec_needs_probe(&s));
}

static void mount_options_split(void **state)
{
	unsigned long flags = MS_RDONLY;
	char data[64];

	(void)state;
	assert_int_equal(mountopts_parse("rw,noatime,data=journal,,nodev,commit=7", &flags,
					 data, sizeof(data)), 0);
	assert_int_equal(flags, MS_NOATIME | MS_NODEV);
	assert_string_equal(data, "data=journal,commit=7");
	flags = 0;
	assert_int_equal(mountopts_parse("defaults,ro", &flags, data, sizeof(data)), 0);
	assert_int_equal(flags, MS_RDONLY);
	assert_string_equal(data, "");
	assert_int_equal(mountopts_parse("subvol=a-very-long-subvolume-name", &flags, data, 10),
			 -ENAMETOOLONG);
}

static void uevent_kernel_message(void **state)
{
	static const char msg[] = "add@/devices/pci0000:00/0000:00:04.0/virtio1/block/vda\0"
		"ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:04.0/virtio1/block/vda\0"
		"SUBSYSTEM=block\0MAJOR=254\0MINOR=0\0DEVNAME=vda\0DEVTYPE=disk\0SEQNUM=1234";
	struct uevent ev;

	(void)state;
	assert_int_equal(uevent_parse(msg, sizeof(msg), &ev), 0);
	assert_string_equal(ev.action, "add");
	assert_string_equal(ev.subsystem, "block");
	assert_string_equal(ev.devname, "vda");
	assert_string_equal(ev.devtype, "disk");
	assert_null(ev.modalias);
	/* Not NUL-terminated, no '@' header, or no ACTION: refused. */
	assert_int_equal(uevent_parse(msg, sizeof(msg) - 1, &ev), -EINVAL);
	assert_int_equal(uevent_parse("libudev\0ACTION=add", 19, &ev), -EINVAL);
	assert_int_equal(uevent_parse("add@/x\0DEVPATH=/x", 18, &ev), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_quotes_like_the_kernel),
		cmocka_unit_test(parse_dracut_names),
		cmocka_unit_test(last_occurrence_wins),
		cmocka_unit_test(vconsole_names),
		cmocka_unit_test(bad_values_are_reported_not_fatal),
		cmocka_unit_test(each_word_has_one_owner),
		cmocka_unit_test(words_reach_their_component),
		cmocka_unit_test(root_spec_forms),
		cmocka_unit_test(root_spec_matching),
		cmocka_unit_test(mount_options_split),
		cmocka_unit_test(uevent_kernel_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
