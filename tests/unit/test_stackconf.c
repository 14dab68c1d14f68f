/* Unit tests: host-only block-stack configuration. The crypttab parser,
 * crypttab names and keys in the init's parameters, the lvm.conf filter
 * reader, the crypttab and mdadm.conf writers, and the host scan on a
 * synthetic sysfs (a LUKS root; LVM on md RAID1) with the tools chosen. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockstack/stack_params.h"
#include "tests/unit/stackwords.h"
#include "common/crypttab.h"
#include "gen/feature/blockstacks.h"
#include "gen/host/hostfacts.h"
#include "gen/host/hostonly.h"
#include "gen/host/kdumphost.h"
#include "gen/host/lvmfilter.h"
#include "gen/host/stackconf.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"
#define U1_HEX "1b2c3d4e00014a5b8c6d7e8f9a0b1c2d"
#define U2 "1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d"
#define MD_UUID "1b2c3d4e-0006-4a5b-8c6d-7e8f9a0b1c2d"

static void crypttab_lines(void **state)
{
	struct crypttab_entry e;
	char uuid[64];

	(void)state;
	assert_int_equal(crypttab_parse_line("sda3_crypt UUID=" U1 " none luks,discard\n", &e), 1);
	assert_string_equal(e.name, "sda3_crypt");
	assert_string_equal(e.source, "UUID=" U1);
	assert_string_equal(e.keyfile, "none");
	assert_string_equal(e.options, "luks,discard");
	assert_false(crypttab_has_keyfile(&e));
	assert_true(crypttab_source_uuid(e.source, uuid, sizeof(uuid)));
	assert_string_equal(uuid, U1);
	/* Two fields only; "-" is none; tabs separate too. */
	assert_int_equal(crypttab_parse_line("\tdata\t/dev/sdb2", &e), 1);
	assert_string_equal(e.keyfile, "none");
	assert_string_equal(e.options, "");
	assert_false(crypttab_source_uuid(e.source, uuid, sizeof(uuid)));
	assert_int_equal(crypttab_parse_line("d /dev/disk/by-uuid/" U2 " - luks", &e), 1);
	assert_string_equal(e.keyfile, "none");
	assert_true(crypttab_source_uuid(e.source, uuid, sizeof(uuid)));
	assert_string_equal(uuid, U2);
	assert_int_equal(crypttab_parse_line("k UUID=" U2 " /etc/keys/k.key luks", &e), 1);
	assert_true(crypttab_has_keyfile(&e));
	/* A random key makes a plain swap: not a key file. */
	assert_int_equal(crypttab_parse_line("swap /dev/sda2 /dev/urandom swap", &e), 1);
	assert_false(crypttab_has_keyfile(&e));
	assert_int_equal(crypttab_parse_line("", &e), 0);
	assert_int_equal(crypttab_parse_line("   \n", &e), 0);
	assert_int_equal(crypttab_parse_line("# name source", &e), 0);
	assert_int_equal(crypttab_parse_line("lonely", &e), -EINVAL);
	assert_int_equal(crypttab_parse_line("a/b UUID=x", &e), -EINVAL);
	assert_int_equal(crypttab_parse_line("a UUID=x none luks extra", &e), -EINVAL);
}

static void crypttab_field_too_long(void **state)
{
	char line[CRYPTTAB_FIELD_MAX + 16];
	struct crypttab_entry e;

	(void)state;
	memset(line, 'n', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(crypttab_parse_line(line, &e), -ENAMETOOLONG);
}

static void uuid_digits(void **state)
{
	char hex[33];

	(void)state;
	assert_true(crypttab_uuid_hex(U1, hex));
	assert_string_equal(hex, U1_HEX);
	assert_true(crypttab_uuid_hex("1B2C3D4E:00014A5B:8C6D7E8F:9A0B1C2D", hex));
	assert_string_equal(hex, U1_HEX);
	assert_false(crypttab_uuid_hex("1b2c", hex));
	assert_false(crypttab_uuid_hex(U1 "00", hex));
	assert_true(crypttab_uuid_equal(U1, "1B2C3D4E:00014A5B:8C6D7E8F:9A0B1C2D"));
	assert_false(crypttab_uuid_equal(U1, U2));
}

/* The init: rd.luks.name= wins over crypttab's NAME, which wins over luks-UUID. */
static void crypttab_names_in_the_init(void **state)
{
	struct stack_params p;
	struct crypttab_entry e;
	char name[STACK_NAME_MAX];

	(void)state;
	stack_params_init(&p);
	assert_int_equal(crypttab_parse_line("sda3_crypt UUID=" U1 " none luks", &e), 1);
	assert_int_equal(stack_params_add_crypttab(&p, &e), 0);
	assert_int_equal(crypttab_parse_line("other /dev/sdb1 none", &e), 1);
	assert_int_equal(stack_params_add_crypttab(&p, &e), 0);
	assert_int_equal(p.n_tab, 1);
	assert_int_equal(p.n_keys, 0);
	/* crypttab does not limit which containers open. */
	assert_true(stack_params_luks_wanted(&p, U2, name, sizeof(name)));
	assert_string_equal(name, "luks-" U2);
	assert_true(stack_params_luks_wanted(&p, "1B2C3D4E-0001-4A5B-8C6D-7E8F9A0B1C2D", name,
					     sizeof(name)));
	assert_string_equal(name, "sda3_crypt");
	assert_int_equal(stack_params_apply(&p, "rd.luks.name=" U1 "=cmdline"), 0);
	assert_true(stack_params_luks_wanted(&p, U1, name, sizeof(name)));
	assert_string_equal(name, "cmdline");
	/* A key file field becomes a key for that container only. */
	assert_int_equal(crypttab_parse_line("k UUID=" U2 " /etc/keys/k.key luks", &e), 1);
	assert_int_equal(stack_params_add_crypttab(&p, &e), 0);
	assert_int_equal(p.n_keys, 1);
	assert_string_equal(p.luks_keys[0].path, "/etc/keys/k.key");
	assert_true(keyspec_applies(&p.luks_keys[0], "vdb", U2));
	assert_false(keyspec_applies(&p.luks_keys[0], "vda", U1));
}

static void lvm_filters(void **state)
{
	char out[512];
	const char *conf =
		"# filter = [ \"r|.*|\" ]   (a comment)\n"
		"config {\n\tcheckpoint = 1\n\tfilter = \"not-devices\"\n}\n"
		"devices {\n"
		"\tdir = \"/dev\"\n"
		"\tscan = [ \"/dev\" ]\n"
		"\tfilter = [ \"a|^/dev/sda[0-9]$|\", # keep\n"
		"\t\t\"r|.*|\" ]\n"
		"\tsub { filter = \"nested\" }\n"
		"\tglobal_filter = [ \"r|^/dev/cdrom$|\" ]\n"
		"\tsysfs_scan = 1\n"
		"}\n"
		"activation { udev_sync = 1 }\n";

	(void)state;
	assert_int_equal(lvmfilter_extract(conf, out, sizeof(out)), 0);
	assert_string_equal(out,
		"\tfilter = [ \"a|^/dev/sda[0-9]$|\", # keep\n\t\t\"r|.*|\" ]\n"
		"\tglobal_filter = [ \"r|^/dev/cdrom$|\" ]\n");
	assert_int_equal(lvmfilter_extract("devices {\n\tdir = \"/dev\"\n}\n", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(lvmfilter_extract("devices { filter = [ \"a|x|\" ] }", out, 8), -E2BIG);
	assert_string_equal(out, "");
	/* Unbalanced or foreign text ends without harm. */
	assert_int_equal(lvmfilter_extract("devices { filter = [ \"a", out, sizeof(out)), 0);
	assert_int_equal(lvmfilter_extract("}}} = = { x", out, sizeof(out)), 0);
}

static bool resolve_partuuid(const char *source, char *dev, size_t size)
{
	if (strcmp(source, "PARTUUID=0a0b0c0d-03") != 0)
		return false;
	snprintf(dev, size, "sda3");
	return true;
}

static struct host_scan one_container(const char *dm_name)
{
	struct host_scan h;

	memset(&h, 0, sizeof(h));
	h.n_luks = 1;
	snprintf(h.luks[0].uuid, sizeof(h.luks[0].uuid), "%s", U1);
	snprintf(h.luks[0].dev, sizeof(h.luks[0].dev), "sda3");
	snprintf(h.luks[0].dm_name, sizeof(h.luks[0].dm_name), "%s", dm_name);
	return h;
}

static void crypttab_for_the_image(void **state)
{
	struct host_scan h = one_container("sda3_crypt");
	struct strv added = STRV_INIT;
	char *out, *left;
	const char *host =
		"# <target name> <source device> <key file> <options>\n"
		"swap_crypt /dev/sda2 /dev/urandom swap\n"
		"sda3_crypt UUID=" U1 " /etc/keys/root.key luks,discard\n"
		"home_crypt UUID=" U2 " none luks\n";

	(void)state;
	/* The key file is not in the image: "none", and said. */
	assert_int_equal(stackconf_crypttab(&h, host, NULL, &added, &out, &left), 0);
	assert_string_equal(out, "sda3_crypt UUID=" U1 " none luks,discard\n");
	assert_string_equal(left, "/etc/keys/root.key\n");
	free(out);
	free(left);
	/* Added with --add-files: kept. */
	assert_int_equal(strv_push(&added, "/etc/keys/root.key"), 0);
	assert_int_equal(stackconf_crypttab(&h, host, NULL, &added, &out, &left), 0);
	assert_string_equal(out, "sda3_crypt UUID=" U1 " /etc/keys/root.key luks,discard\n");
	assert_string_equal(left, "");
	free(out);
	free(left);
	strv_free(&added);
	/* By path, and by another tag through the resolver: the source
	 * becomes the UUID, which the init matches. */
	assert_int_equal(stackconf_crypttab(&h, "root /dev/sda3 none luks\n", NULL, &added,
					    &out, &left), 0);
	assert_string_equal(out, "root UUID=" U1 " none luks\n");
	free(out);
	free(left);
	assert_int_equal(stackconf_crypttab(&h, "r2 PARTUUID=0a0b0c0d-03\n", resolve_partuuid,
					    &added, &out, &left), 0);
	assert_string_equal(out, "r2 UUID=" U1 " none\n");
	free(out);
	free(left);
	/* A keyscript's argument is no key file: kept as written, not said. */
	assert_int_equal(stackconf_crypttab(&h, "r /dev/sda3 /dev/disk/by-label/K:/k.key "
					    "luks,keyscript=passdev\n", NULL, &added, &out, &left), 0);
	assert_string_equal(out, "r UUID=" U1 " /dev/disk/by-label/K:/k.key luks,keyscript=passdev\n");
	assert_string_equal(left, "");
	free(out);
	free(left);
	assert_int_equal(stackconf_crypttab(&h, "r /dev/sda3 /etc/lbkey keyscript=decrypt_keyctl\n",
					    NULL, &added, &out, &left), 0);
	assert_string_equal(out, "r UUID=" U1 " /etc/lbkey keyscript=decrypt_keyctl\n");
	assert_string_equal(left, "");
	free(out);
	free(left);
}

static void crypttab_without_a_host_line(void **state)
{
	struct host_scan h = one_container("sda3_crypt");
	struct host_scan plain = one_container("luks-" U1);
	struct strv added = STRV_INIT;
	char *out, *left;

	(void)state;
	/* No crypttab: the mapping's current name is kept. */
	assert_int_equal(stackconf_crypttab(&h, NULL, NULL, &added, &out, &left), 0);
	assert_string_equal(out, "sda3_crypt UUID=" U1 " none\n");
	free(out);
	free(left);
	/* The default name needs no line. */
	assert_int_equal(stackconf_crypttab(&plain, "x UUID=" U2 "\n", NULL, &added, &out, &left), 0);
	assert_string_equal(out, "");
	free(out);
	free(left);
}

struct noted {
	int n;
	char last[600];
};

static void note_count(void *ctx, const char *name, const struct luks_opts *o)
{
	struct noted *c = ctx;

	c->n++;
	snprintf(c->last, sizeof(c->last), "%s: %s", name, o->notes);
}

/* The generator says which options the init will not act on, and refuses
 * a detached header (the init could not find that container). */
static void crypttab_options_checked(void **state)
{
	struct noted c = { 0, "" };

	(void)state;
	assert_int_equal(stackconf_crypttab_check("", note_count, &c), 0);
	assert_int_equal(stackconf_crypttab_check("a UUID=" U1 " none luks,discard,tries=2\n"
						  "# c UUID=" U2 " none frob\n",
						  note_count, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(stackconf_crypttab_check("a UUID=" U1 " none plain\n"
						  "k UUID=" U1 " none keyscript=/lib/k\n"
						  "b UUID=" U2 " none keyscript=lib/k", note_count, &c),
			 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.last, "b: keyscript=lib/k: not a name in /lib/cryptsetup/scripts "
			    "or an absolute path, ignored");
	assert_int_equal(stackconf_crypttab_check("h UUID=" U1 " none luks,header=/boot/h.img\n",
						  note_count, &c), -ENOTSUP);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.last, "h: header=/boot/h.img: detached LUKS headers are not supported");
}

static void mdadm_conf_for_the_image(void **state)
{
	struct host_scan h;
	const char *uuids[] = { MD_UUID, NULL };
	char *out;
	const char *host =
		"HOMEHOST <system>\n"
		"ARRAY /dev/md/1 metadata=1.2 UUID=00000000:00000000:00000000:00000001 name=h:1\n"
		"ARRAY /dev/md/0 metadata=1.2 name=h:0\n"
		"   UUID=1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d\n"
		"MAILADDR root\n";

	(void)state;
	memset(&h, 0, sizeof(h));
	h.n_md = 2;
	strcpy(h.md[0].dev, "md0");
	strcpy(h.md[0].member, "sda1");
	strcpy(h.md[1].dev, "md1");
	assert_int_equal(stackconf_mdadm(&h, host, uuids, &out), 0);
	assert_non_null(strstr(out, "ARRAY /dev/md/0 metadata=1.2 name=h:0\n"
				    "   UUID=1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d\n"));
	assert_null(strstr(out, "md/1"));
	assert_null(strstr(out, "MAILADDR"));
	free(out);
	/* No host line: made from the UUID, in mdadm's spelling. */
	assert_int_equal(stackconf_mdadm(&h, NULL, uuids, &out), 0);
	assert_non_null(strstr(out, "\nARRAY /dev/md0 UUID=1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d\n"));
	assert_null(strstr(out, "md1"));
	free(out);
}

/* A synthetic sysfs under a temporary directory. */
static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target_rel)
{
	char path[512], target[512], cmd[600];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(target, sizeof(target), "%s/%s", root, target_rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(symlink(target, path), 0);
}

/* A disk with partitions on a controller; each partition has dev and partition. */
static void disk(const char *name, const char *devnum, int part, const char *part_devnum)
{
	char rel[256], target[256];

	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/0000:00:04.0/block/%s/dev", name);
	put(rel, devnum);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/0000:00:04.0/block/%s/%s%d/dev", name, name, part);
	put(rel, part_devnum);
	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/0000:00:04.0/block/%s/%s%d/partition", name, name, part);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "sys/dev/block/%s", part_devnum);
	rel[strcspn(rel, "\n")] = '\0';
	snprintf(target, sizeof(target), "sys/devices/pci0000:00/0000:00:04.0/block/%s/%s%d", name, name, part);
	link_to(rel, target);
}

static int sysfs_setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/lifeboat-sysfs-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int sysfs_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void scan(struct host_scan *h)
{
	char sys[128], mountinfo[128];

	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	assert_int_equal(hostonly_scan(h, sys, mountinfo), 0);
	assert_true(h->root_seen);
}

static void scan_luks_root(void **state)
{
	struct host_scan h;

	(void)state;
	disk("sda", "8:0\n", 3, "8:3\n");
	put("sys/devices/virtual/block/dm-0/dev", "253:0\n");
	put("sys/devices/virtual/block/dm-0/dm/uuid", "CRYPT-LUKS2-" U1_HEX "-sda3_crypt\n");
	put("sys/devices/virtual/block/dm-0/dm/name", "sda3_crypt\n");
	link_to("sys/devices/virtual/block/dm-0/slaves/sda3",
		"sys/devices/pci0000:00/0000:00:04.0/block/sda/sda3");
	link_to("sys/dev/block/253:0", "sys/devices/virtual/block/dm-0");
	put("mountinfo", "22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/sda3_crypt rw\n");
	scan(&h);
	assert_int_equal(h.n_luks, 1);
	assert_string_equal(h.luks[0].uuid, U1);
	assert_string_equal(h.luks[0].dev, "sda3");
	assert_string_equal(h.luks[0].dm_name, "sda3_crypt");
	assert_int_equal(h.n_md, 0);
	assert_false(h.lvm);
	assert_string_equal(h.root_fstype, "ext4");
	assert_true(strv_contains(&h.root_modules, "dm_crypt"));
	assert_true(blockstacks_host_uses(&h, "/usr/sbin/cryptsetup"));
	assert_false(blockstacks_host_uses(&h, "/usr/sbin/lvm"));
	assert_false(blockstacks_host_uses(&h, "/usr/sbin/mdadm"));
	/* The config line chosen for what the scan found: the host's line
	 * names the container by its node. */
	{
		struct strv added = STRV_INIT;
		char *out, *left;

		assert_int_equal(stackconf_crypttab(&h, "other UUID=" U2 " none\n"
						    "sda3_crypt /dev/sda3 none luks\n", NULL,
						    &added, &out, &left), 0);
		assert_string_equal(out, "sda3_crypt UUID=" U1 " none luks\n");
		free(out);
		free(left);
	}
	hostonly_free(&h);
}

/* A capture image's dump disk in a LUKS container on another disk than
 * the root's: its stack joins the host's (gen/host/kdumphost.c), named by
 * MAJ:MIN here (a tag needs a real device for libblkid); a device the
 * host does not have adds nothing. And which part of a target names the
 * device. */
static void scan_dump_disk(void **state)
{
	struct host_facts f;
	char dev[64];

	(void)state;
	disk("sda", "8:0\n", 1, "8:1\n");
	disk("sdb", "8:16\n", 1, "8:17\n");
	put("sys/devices/virtual/block/dm-1/dev", "253:1\n");
	put("sys/devices/virtual/block/dm-1/dm/uuid", "CRYPT-LUKS2-" U1_HEX "-dumpcrypt\n");
	put("sys/devices/virtual/block/dm-1/dm/name", "dumpcrypt\n");
	link_to("sys/devices/virtual/block/dm-1/slaves/sdb1",
		"sys/devices/pci0000:00/0000:00:04.0/block/sdb/sdb1");
	link_to("sys/dev/block/253:1", "sys/devices/virtual/block/dm-1");
	put("mountinfo", "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
	memset(&f, 0, sizeof(f));
	scan(&f.stack);
	assert_int_equal(f.stack.n_luks, 0);
	assert_false(blockstacks_host_uses(&f.stack, "/usr/sbin/cryptsetup"));
	assert_int_equal(hostfacts_add_device(&f, root, "253:1"), 0);
	assert_int_equal(f.stack.n_luks, 1);
	assert_string_equal(f.stack.luks[0].uuid, U1);
	assert_string_equal(f.stack.luks[0].dev, "sdb1");
	assert_true(blockstacks_host_uses(&f.stack, "/usr/sbin/cryptsetup"));
	assert_int_equal(hostfacts_add_device(&f, root, "UUID=" U2), -ENOENT);
	assert_int_equal(f.stack.n_luks, 1);
	hostonly_free(&f.stack);

	kdumphost_target_device("UUID=" U1 ":/var/crash", dev, sizeof(dev));
	assert_string_equal(dev, "UUID=" U1);
	kdumphost_target_device("LABEL=dumps", dev, sizeof(dev));
	assert_string_equal(dev, "LABEL=dumps");
	kdumphost_target_device("/dev/sdb1:/dumps", dev, sizeof(dev));
	assert_string_equal(dev, "/dev/sdb1");
	kdumphost_target_device("nfs:198.51.100.1:/dumps", dev, sizeof(dev));
	assert_string_equal(dev, "");
	kdumphost_target_device("https://dumps.example/up/", dev, sizeof(dev));
	assert_string_equal(dev, "");
	kdumphost_target_device(":/var/crash", dev, sizeof(dev));
	assert_string_equal(dev, "");
}

static void scan_lvm_on_md(void **state)
{
	struct host_scan h;

	(void)state;
	disk("sda", "8:0\n", 1, "8:1\n");
	disk("sdb", "8:16\n", 1, "8:17\n");
	put("sys/devices/virtual/block/md0/dev", "9:0\n");
	put("sys/devices/virtual/block/md0/md/level", "raid1\n");
	link_to("sys/devices/virtual/block/md0/slaves/sda1",
		"sys/devices/pci0000:00/0000:00:04.0/block/sda/sda1");
	link_to("sys/devices/virtual/block/md0/slaves/sdb1",
		"sys/devices/pci0000:00/0000:00:04.0/block/sdb/sdb1");
	link_to("sys/dev/block/9:0", "sys/devices/virtual/block/md0");
	put("sys/devices/virtual/block/dm-1/dev", "253:1\n");
	put("sys/devices/virtual/block/dm-1/dm/uuid", "LVM-abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcd\n");
	put("sys/devices/virtual/block/dm-1/dm/name", "vg-root\n");
	link_to("sys/devices/virtual/block/dm-1/slaves/md0", "sys/devices/virtual/block/md0");
	link_to("sys/dev/block/253:1", "sys/devices/virtual/block/dm-1");
	put("mountinfo", "22 1 253:1 / / rw - xfs /dev/mapper/vg-root rw\n"
			 "30 22 0:5 / /dev rw - devtmpfs udev rw\n");
	scan(&h);
	assert_true(h.lvm);
	assert_int_equal(h.n_luks, 0);
	assert_int_equal(h.n_md, 1);
	assert_string_equal(h.md[0].dev, "md0");
	assert_true(strcmp(h.md[0].member, "sda1") == 0 || strcmp(h.md[0].member, "sdb1") == 0);
	assert_true(strv_contains(&h.root_modules, "raid1"));
	assert_true(strv_contains(&h.root_modules, "dm_snapshot"));
	assert_false(blockstacks_host_uses(&h, "/usr/sbin/cryptsetup"));
	assert_true(blockstacks_host_uses(&h, "/usr/sbin/lvm"));
	assert_true(blockstacks_host_uses(&h, "/usr/sbin/mdadm"));
	/* The ARRAY line chosen for the array the scan found. */
	{
		const char *uuids[] = { MD_UUID };
		char *out;

		assert_int_equal(stackconf_mdadm(&h, NULL, uuids, &out), 0);
		assert_non_null(strstr(out, "ARRAY /dev/md0 UUID=1b2c3d4e:00064a5b:8c6d7e8f:9a0b1c2d\n"));
		free(out);
		/* The image assembles that array and volume group only. */
		assert_int_equal(stackconf_cmdline(&h, uuids, &out), 0);
		assert_string_equal(out, "rd.md.uuid=" MD_UUID " rd.lvm.vg=vg\n");
		free(out);
	}
	hostonly_free(&h);
}

/* The host-only command line: every container, the arrays whose UUID is
 * known, every volume group; nothing for an empty stack. */
static void cmdline_for_the_image(void **state)
{
	struct host_scan h = one_container("sda3_crypt");
	const char *uuids[] = { NULL, MD_UUID };
	char *out;

	(void)state;
	h.n_md = 2;
	assert_int_equal(strv_push(&h.lvm_vgs, "vg0"), 0);
	assert_int_equal(strv_push(&h.lvm_vgs, "my-vg"), 0);
	assert_int_equal(stackconf_cmdline(&h, uuids, &out), 0);
	assert_string_equal(out, "rd.luks.uuid=" U1 " rd.md.uuid=" MD_UUID
			    " rd.lvm.vg=vg0 rd.lvm.vg=my-vg\n");
	free(out);
	strv_free(&h.lvm_vgs);
	memset(&h, 0, sizeof(h));
	assert_int_equal(stackconf_cmdline(&h, uuids, &out), 0);
	assert_string_equal(out, "");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crypttab_lines),
		cmocka_unit_test(crypttab_field_too_long),
		cmocka_unit_test(uuid_digits),
		cmocka_unit_test(crypttab_names_in_the_init),
		cmocka_unit_test(crypttab_options_checked),
		cmocka_unit_test(lvm_filters),
		cmocka_unit_test(crypttab_for_the_image),
		cmocka_unit_test(crypttab_without_a_host_line),
		cmocka_unit_test(mdadm_conf_for_the_image),
		cmocka_unit_test(cmdline_for_the_image),
		cmocka_unit_test_setup_teardown(scan_luks_root, sysfs_setup, sysfs_teardown),
		cmocka_unit_test_setup_teardown(scan_lvm_on_md, sysfs_setup, sysfs_teardown),
		cmocka_unit_test_setup_teardown(scan_dump_disk, sysfs_setup, sysfs_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
