/* Unit tests: bootlib/fstab.c, the real root's /etc/fstab as the init
 * reads it for a /usr of its own (init/usrmount.c): the entry found, its
 * options for the kernel, and the device its first field names; and the
 * command line's mount.usr= words (init/root_args.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/fstab.h"
#include "init/bootargs.h"

static int find(const char *text, struct fstab_entry *e)
{
	return fstab_find(text, strlen(text), "/usr", e);
}

/* The installer's fstab: comments, the root, /usr by UUID, a swap. */
static void installer_fstab(void **state)
{
	struct fstab_entry e;

	(void)state;
	assert_int_equal(find("# /etc/fstab: static file system information.\n"
			      "#\n"
			      "# <file system> <mount point>   <type>  <options>       <dump>  <pass>\n"
			      "UUID=1b2c-root /               ext4    errors=remount-ro 0       1\n"
			      "# /usr was on /dev/vda2 during installation\n"
			      "UUID=1b2c-usr /usr            ext4    defaults        0       2\n"
			      "UUID=1b2c-swap none            swap    sw              0       0\n", &e), 0);
	assert_string_equal(e.spec, "UUID=1b2c-usr");
	assert_string_equal(e.dir, "/usr");
	assert_string_equal(e.type, "ext4");
	assert_string_equal(e.opts, "defaults");
	assert_int_equal(e.freq, 0);
	assert_int_equal(e.passno, 2);
}

/* Comments and blank lines are not entries, even when they name /usr;
 * with no /usr entry the answer is -ENOENT. */
static void comments_and_none(void **state)
{
	struct fstab_entry e;

	(void)state;
	assert_int_equal(find("#UUID=old /usr ext4 defaults 0 2\n"
			      "   # LABEL=x /usr ext4 defaults 0 2\n"
			      "\n   \t\n"
			      "UUID=r / ext4 defaults 0 1\n", &e), -ENOENT);
	assert_string_equal(e.spec, "");
	assert_int_equal(find("", &e), -ENOENT);
	/* /usr/local, /usrx and /srv/usr are other mount points. */
	assert_int_equal(find("LABEL=a /usr/local ext4 defaults 0 2\n"
			      "LABEL=b /usrx ext4 defaults 0 2\nLABEL=c /srv/usr xfs defaults 0 0\n",
			      &e), -ENOENT);
	/* A spec alone is no entry. */
	assert_int_equal(find("LABEL=usr\n", &e), -ENOENT);
}

/* The first /usr entry wins (initramfs-tools and dracut stop there); tabs,
 * several blanks, a last line without newline, CRLF line ends. */
static void first_entry_and_blanks(void **state)
{
	struct fstab_entry e;

	(void)state;
	assert_int_equal(find("\tLABEL=one\t\t/usr  xfs\tro,noatime 1 0\r\n"
			      "LABEL=two /usr ext4 defaults 0 2", &e), 0);
	assert_string_equal(e.spec, "LABEL=one");
	assert_string_equal(e.type, "xfs");
	assert_string_equal(e.opts, "ro,noatime");
	assert_int_equal(e.freq, 1);
	assert_int_equal(e.passno, 0);
	assert_int_equal(find("LABEL=last /usr btrfs subvol=@usr 0 0", &e), 0);
	assert_string_equal(e.opts, "subvol=@usr");
}

/* "/usr/" and "//usr" are /usr; missing fields take fstab(5)'s defaults;
 * a pass number that is no number is 0. */
static void paths_and_defaults(void **state)
{
	struct fstab_entry e;

	(void)state;
	assert_int_equal(find("/dev/vdb //usr/\n", &e), 0);
	assert_string_equal(e.spec, "/dev/vdb");
	assert_string_equal(e.type, "auto");
	assert_string_equal(e.opts, "defaults");
	assert_int_equal(e.passno, 0);
	assert_int_equal(find("/dev/vdb /usr ext4 defaults 0 x2\n", &e), 0);
	assert_int_equal(e.passno, 0);
	assert_int_equal(find("/dev/vdb /usr ext4 defaults 0 -1\n", &e), 0);
	assert_int_equal(e.passno, 0);
	assert_int_equal(find("/dev/vdb /usr ext4 defaults 0 2 extra fields\n", &e), 0);
	assert_int_equal(e.passno, 2);
	assert_int_equal(fstab_find("/dev/vdb / ext4 defaults 0 1\n", 29, "/", &e), 0);
	assert_string_equal(e.dir, "/");
}

/* \040 is a space, \011 a tab, \134 a backslash; other backslashes stay. */
static void escapes(void **state)
{
	struct fstab_entry e;

	(void)state;
	assert_int_equal(find("LABEL=my\\040usr /usr ext4 comment=a\\011b,x\\q 0 2\n", &e), 0);
	assert_string_equal(e.spec, "LABEL=my usr");
	assert_string_equal(e.opts, "comment=a\tb,x\\q");
	assert_int_equal(find("LABEL=a\\134b /\\165sr ext4 defaults 0 2\n", &e), 0);
	assert_string_equal(e.spec, "LABEL=a\\b");
	assert_string_equal(e.dir, "/usr");
}

/* A field too long: the /usr entry is refused, not cut; another line's
 * long field does not matter; a mount point too long is never /usr. */
static void too_long(void **state)
{
	char text[2 * FSTAB_OPTS_MAX + 64], longdir[FSTAB_FIELD_MAX + 16];
	struct fstab_entry e;

	(void)state;
	memset(longdir, '/', sizeof(longdir) - 1);
	longdir[sizeof(longdir) - 1] = '\0';
	memcpy(longdir + sizeof(longdir) - 5, "/usr", 4);
	snprintf(text, sizeof(text), "LABEL=a %s ext4 defaults 0 2\n", longdir);
	assert_int_equal(find(text, &e), -ENOENT);
	snprintf(text, sizeof(text), "LABEL=a /usr ext4 %0*d 0 2\n", FSTAB_OPTS_MAX, 0);
	assert_int_equal(find(text, &e), -ENAMETOOLONG);
	snprintf(text, sizeof(text), "LABEL=a /srv ext4 %0*d 0 2\nLABEL=u /usr ext4 ro 0 1\n",
		 FSTAB_OPTS_MAX, 0);
	assert_int_equal(find(text, &e), 0);
	assert_string_equal(e.spec, "LABEL=u");
}

static void from_file(void **state)
{
	char path[] = "/tmp/lifeboat-fstab-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "UUID=r / ext4 defaults 0 1\nUUID=u /usr ext4 defaults 0 2\n";
	struct fstab_entry e;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (int)sizeof(text) - 1);
	close(fd);
	assert_int_equal(fstab_find_file(path, "/usr", &e), 0);
	assert_string_equal(e.spec, "UUID=u");
	unlink(path);
	assert_int_equal(fstab_find_file(path, "/usr", &e), -ENOENT);
}

static void kernel_options(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(fstab_options_kernel("defaults", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(fstab_options_kernel("noauto,x-systemd.device-timeout=5,ro,nofail,"
					      "comment=x,_netdev,X-mount.mkdir,data=journal,users,"
					      "owner,group,user,nouser,auto,noatime", out, sizeof(out)), 0);
	assert_string_equal(out, "ro,data=journal,noatime");
	assert_int_equal(fstab_options_kernel(",,subvol=@usr,,", out, sizeof(out)), 0);
	assert_string_equal(out, "subvol=@usr");
	/* "x" alone and "userspace" are not userspace words. */
	assert_int_equal(fstab_options_kernel("x,userspace", out, sizeof(out)), 0);
	assert_string_equal(out, "x,userspace");
	assert_int_equal(fstab_options_kernel("data=journal", out, 13), 0);
	assert_int_equal(fstab_options_kernel("data=journal", out, 12), -ENAMETOOLONG);
	assert_int_equal(fstab_options_kernel("a", out, 0), -ENAMETOOLONG);
}

static void spec_forms(void **state)
{
	struct dev_spec s;

	(void)state;
	assert_int_equal(fstab_spec_parse("UUID=1B2C-usr", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_UUID);
	assert_string_equal(s.value, "1B2C-usr");
	assert_int_equal(fstab_spec_parse("LABEL=\"my usr\"", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_LABEL);
	assert_string_equal(s.value, "my usr");
	assert_int_equal(fstab_spec_parse("PARTLABEL='usr'", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTLABEL);
	assert_string_equal(s.value, "usr");
	assert_int_equal(fstab_spec_parse("PARTUUID=c0ffee00-02", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTUUID);
	assert_int_equal(fstab_spec_parse("/dev/vdb1", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PATH);
	assert_string_equal(s.value, "vdb1");
	assert_int_equal(fstab_spec_parse("/dev/mapper/vg-usr", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PATH);
	assert_string_equal(s.value, "mapper/vg-usr");
}

/* udev's links stand for their tags; a label's \xHH is its byte. */
static void spec_links(void **state)
{
	struct dev_spec s;

	(void)state;
	assert_int_equal(fstab_spec_parse("/dev/disk/by-uuid/1b2c-usr", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_UUID);
	assert_string_equal(s.value, "1b2c-usr");
	assert_int_equal(fstab_spec_parse("/dev/disk/by-label/my\\x20usr\\x2fa", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_LABEL);
	assert_string_equal(s.value, "my usr/a");
	/* Not an escape: kept as written. */
	assert_int_equal(fstab_spec_parse("/dev/disk/by-partlabel/a\\x2\\x00\\xzz", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTLABEL);
	assert_string_equal(s.value, "a\\x2\\x00\\xzz");
	assert_int_equal(fstab_spec_parse("/dev/disk/by-partuuid/c0ffee00-02", &s), 0);
	assert_int_equal(s.kind, DEVSPEC_PARTUUID);
}

/* What names no block device, or one lifeboat cannot find without udev. */
static void spec_refused(void **state)
{
	struct dev_spec s;

	(void)state;
	assert_int_equal(fstab_spec_parse("server:/export/usr", &s), -ENOTBLK);
	assert_int_equal(fstab_spec_parse("tmpfs", &s), -ENOTBLK);
	assert_int_equal(fstab_spec_parse("/srv/usr", &s), -ENOTBLK);
	assert_int_equal(fstab_spec_parse("8:2", &s), -ENOTBLK);
	assert_int_equal(fstab_spec_parse("/dev/disk/by-id/virtio-usr", &s), -EOPNOTSUPP);
	assert_int_equal(fstab_spec_parse("/dev/disk/by-path/pci-0000:00:05.0", &s), -EOPNOTSUPP);
	assert_int_equal(fstab_spec_parse("UUID=", &s), -EINVAL);
	assert_int_equal(fstab_spec_parse("LABEL=\"\"", &s), -EINVAL);
	assert_int_equal(fstab_spec_parse("/dev/", &s), -EINVAL);
}

/* The spec from fstab names the device a probe finds, as root= does. */
static void spec_matches(void **state)
{
	struct blk_info info;
	struct dev_spec s;

	(void)state;
	memset(&info, 0, sizeof(info));
	snprintf(info.uuid, sizeof(info.uuid), "1b2c3d4e-00d7-4a5b-8c6d-7e8f9a0b1c2d");
	snprintf(info.label, sizeof(info.label), "my usr");
	assert_int_equal(fstab_spec_parse("UUID=1B2C3D4E-00D7-4A5B-8C6D-7E8F9A0B1C2D", &s), 0);
	assert_true(devspec_matches(&s, "vdb", 254, 16, &info));
	/* The escapes are the reader's: the spec is taken as it is given. */
	assert_int_equal(fstab_spec_parse("LABEL=my\\040usr", &s), 0);
	assert_false(devspec_matches(&s, "vdb", 254, 16, &info));
	assert_int_equal(fstab_spec_parse("LABEL='my usr'", &s), 0);
	assert_true(devspec_matches(&s, "vdb", 254, 16, &info));
	assert_int_equal(fstab_spec_parse("/dev/vdb", &s), 0);
	assert_true(devspec_matches(&s, "vdb", 254, 16, NULL));
	assert_false(devspec_matches(&s, "vdb1", 254, 17, NULL));
}

/* systemd's words land in the root's arguments; the last one wins. */
static void cmdline_words(void **state)
{
	static struct boot_args args;

	(void)state;
	bootargs_init(&args);
	assert_int_equal(bootargs_parse("root=LABEL=r mount.usr=UUID=u mount.usrfstype=xfs "
					"mount.usrflags=ro,noatime mount.usr=LABEL=usr", "test", &args), 0);
	assert_string_equal(args.root.usr, "LABEL=usr");
	assert_string_equal(args.root.usr_fstype, "xfs");
	assert_string_equal(args.root.usr_flags, "ro,noatime");
	assert_string_equal(args.root.root, "LABEL=r");
	bootargs_free(&args);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(installer_fstab),
		cmocka_unit_test(comments_and_none),
		cmocka_unit_test(first_entry_and_blanks),
		cmocka_unit_test(paths_and_defaults),
		cmocka_unit_test(escapes),
		cmocka_unit_test(too_long),
		cmocka_unit_test(from_file),
		cmocka_unit_test(kernel_options),
		cmocka_unit_test(spec_forms),
		cmocka_unit_test(spec_links),
		cmocka_unit_test(spec_refused),
		cmocka_unit_test(spec_matches),
		cmocka_unit_test(cmdline_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
