/* Unit tests: module choice with libkmod against the installed kernel and a
 * synthetic module tree, decompression, firmware lookup, the host scan. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/modtab.h"
#include "gen/host/hostonly.h"
#include "gen/kmod/kmods.h"
#include "gen/kmod/modfile.h"
#include "gen/kmod/modpack.h"
#include "tests/unit/kernel_fixture.h"

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* The table kmods would write, parsed back. */
static void table_of(struct kmods *k, struct modtab *t)
{
	char *text;
	size_t len, bad;

	assert_int_equal(kmods_table(k, &text, &len), 0);
	assert_int_equal(modtab_parse(text, len, t, &bad), 0);
	free(text);
}

/* Module names modprobe would insmod for name, as `modprobe --show-depends`. */
static void modprobe_names(const char *dir_opt, const char *name, struct strv *out)
{
	char cmd[1024], line[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "modprobe %s --show-depends -S %s %s", dir_opt, kver, name);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *base, *ko;

		if (strncmp(line, "insmod ", 7) != 0)
			continue;
		line[7 + strcspn(line + 7, " \n")] = '\0';
		base = strrchr(line, '/') + 1;
		ko = strstr(base, ".ko");
		*ko = '\0';
		for (char *c = base; *c; c++)
			*c = *c == '-' ? '_' : *c;
		strv_push_unique(out, base);
	}
	assert_int_equal(pclose(p), 0);
}

static void deps_like_modprobe(void **state)
{
	struct strv want = STRV_INIT;
	struct kmods *k;
	struct modtab t;

	(void)state;
	NEED_KERNEL();
	modprobe_names("", "virtio_blk", &want);
	assert_true(want.len >= 2);
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add(k, "virtio_blk", "test"), 0);
	assert_int_equal(kmods_count(k), want.len);
	table_of(k, &t);
	for (size_t i = 0; i < want.len; i++)
		assert_non_null(modtab_find(&t, want.items[i]));
	assert_true(modtab_find(&t, "virtio_blk")->deps[0] != NULL);
	modtab_free(&t);
	kmods_free(k);
	strv_free(&want);
}

static void alias_and_softdeps(void **state)
{
	struct strv want = STRV_INIT;
	struct kmods *k;
	struct modtab t;
	struct modtab_module *m;

	(void)state;
	NEED_KERNEL();
	/* modprobe lists softdeps too: the same set must come out. */
	modprobe_names("", "fs-ext4", &want);
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add(k, "fs-ext4", "test"), 0);
	assert_int_equal(kmods_count(k), want.len);
	table_of(k, &t);
	m = modtab_find(&t, "ext4");
	assert_non_null(m);
	for (size_t i = 0; i < want.len; i++)
		assert_non_null(modtab_find(&t, want.items[i]));
	/* The alias resolves through the table as in the init. */
	assert_true(t.n_aliases > 0);
	for (size_t i = 0; i < t.n_aliases; i++)
		assert_non_null(modtab_find(&t, t.aliases[i].module));
	modtab_free(&t);
	kmods_free(k);
	strv_free(&want);
}

static void unknown_name_fails_omit_drops(void **state)
{
	struct kmods *k;
	struct modtab t;
	struct modtab_module *m;

	(void)state;
	NEED_KERNEL();
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add(k, "no_such_module_lifeboat", "test"), -ENOENT);
	assert_int_equal(kmods_count(k), 0);
	assert_int_equal(kmods_omit(k, "virtio-ring"), 0);
	assert_int_equal(kmods_add(k, "virtio_blk", "test"), 0);
	table_of(k, &t);
	assert_null(modtab_find(&t, "virtio_ring"));
	m = modtab_find(&t, "virtio_blk");
	assert_non_null(m);
	for (size_t i = 0; m->deps[i]; i++)
		assert_string_not_equal(m->deps[i], "virtio_ring");
	modtab_free(&t);
	kmods_free(k);
}

static void generic_set(void **state)
{
	static const char *const want[] = { "virtio_blk", "ahci", "sd_mod", "virtio_scsi", "ext4",
					    "xfs", "btrfs", "libcrc32c", "nvme", "dm_crypt",
					    "usb_storage", "raid456", NULL };
	static const char *const unwanted[] = { "e1000e", "virtio_net", "snd_hda_intel", "nfs",
						"amdgpu", NULL };
	struct kmods *k;
	struct modtab t;

	(void)state;
	NEED_KERNEL();
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add_generic(k), 0);
	table_of(k, &t);
	for (size_t i = 0; want[i]; i++) {
		if (!modtab_find(&t, want[i]))
			fail_msg("generic set lacks %s", want[i]);
	}
	for (size_t i = 0; unwanted[i]; i++)
		assert_null(modtab_find(&t, unwanted[i]));
	/* Every dependency is in the table too. */
	for (size_t i = 0; i < t.n_mods; i++)
		for (size_t j = 0; t.mods[i].deps[j]; j++)
			assert_non_null(modtab_find(&t, t.mods[i].deps[j]));
	modtab_free(&t);
	kmods_free(k);
}

static void modprobe_d_options_blacklist(void **state)
{
	char dir[] = "/tmp/kmods-conf-XXXXXX";
	struct kmods *k;
	struct modtab t;
	struct modtab_module *m;

	(void)state;
	NEED_KERNEL();
	assert_non_null(mkdtemp(dir));
	sh("printf 'options virtio_blk queue_depth=4\\nblacklist virtio_blk\\n"
	   "alias my-disk virtio_blk\\n' > %s/test.conf", dir);
	assert_int_equal(kmods_open_config(&k, moddir, kver, dir), 0);
	assert_int_equal(kmods_add(k, "my-disk", "test"), 0);
	table_of(k, &t);
	m = modtab_find(&t, "virtio_blk");
	assert_non_null(m);
	assert_string_equal(m->options, "queue_depth=4");
	assert_true(m->blacklisted);
	modtab_free(&t);
	/* A blacklisted module does not come through a modalias. */
	kmods_free(k);
	assert_int_equal(kmods_open_config(&k, moddir, kver, dir), 0);
	assert_int_equal(kmods_add_modalias(k, "virtio:d00000002v00001AF4", "test"), 0);
	assert_int_equal(kmods_count(k), 0);
	kmods_free(k);
	sh("rm -rf %s", dir);
}

static void emit_into_image(void **state)
{
	struct kmods *k;
	struct image *img = image_new();
	char path[1024];

	(void)state;
	NEED_KERNEL();
	assert_int_equal(kmods_open(&k, moddir, kver), 0);
	assert_int_equal(kmods_add(k, "virtio_blk", "test"), 0);
	assert_int_equal(kmods_emit(k, img, "/nonexistent"), 0);
	assert_true(image_has(img, MODTAB_PATH));
	snprintf(path, sizeof(path), "/lib/modules/%s/kernel/drivers/block/virtio_blk.ko", kver);
	assert_true(image_has(img, path));
	image_free(img);
	kmods_free(k);
}

/* A real module compressed with each tool decompresses to the same bytes. */
static void decompression_byte_for_byte(void **state)
{
	static const char *const tools[][2] = { { "xz -k -f", ".xz" }, { "zstd -q -k -f", ".zst" },
						{ "gzip -k -f", ".gz" } };
	char dir[] = "/tmp/kmods-z-XXXXXX", ko[1024], z[1100];
	void *orig, *data;
	size_t orig_len, len;

	(void)state;
	NEED_KERNEL();
	assert_non_null(mkdtemp(dir));
	snprintf(ko, sizeof(ko), "%s/virtio_blk.ko", dir);
	sh("cp %s/kernel/drivers/block/virtio_blk.ko* %s/ && (unxz %s.xz 2>/dev/null; "
	   "unzstd -q --rm %s.zst 2>/dev/null; true)", moddir, dir, ko, ko);
	assert_int_equal(modfile_read(ko, &orig, &orig_len), 0);
	assert_false(modfile_is_compressed(ko));
	for (size_t i = 0; i < 3; i++) {
		sh("cd %s && %s virtio_blk.ko", dir, tools[i][0]);
		snprintf(z, sizeof(z), "%s%s", ko, tools[i][1]);
		assert_true(modfile_is_compressed(z));
		assert_int_equal(modfile_read(z, &data, &len), 0);
		assert_int_equal(len, orig_len);
		assert_memory_equal(data, orig, len);
		free(data);
		/* A truncated file is an error, not a short module. */
		sh("head -c 2000 %s > %s.cut && mv %s.cut %s", z, z, z, z);
		assert_int_not_equal(modfile_read(z, &data, &len), 0);
	}
	free(orig);
	sh("rm -rf %s", dir);
}

static void image_path_strips_suffix(void **state)
{
	char *p = modfile_image_path("/r/usr/lib/modules/9.9/kernel/fs/x.ko.zst", "/r/usr/lib/modules/9.9/", "9.9", false);

	(void)state;
	assert_string_equal(p, "/lib/modules/9.9/kernel/fs/x.ko.xz");
	free(p);
	p = modfile_image_path("/elsewhere/y.ko.xz", "/r/lib/modules/9.9", "9.9", false);
	assert_string_equal(p, "/lib/modules/9.9/y.ko.xz");
	free(p);
	/* A module stored plain keeps the .ko name the init loads by descriptor. */
	p = modfile_image_path("/r/lib/modules/9.9/kernel/fs/ext4/ext4.ko.zst", "/r/lib/modules/9.9", "9.9", true);
	assert_string_equal(p, "/lib/modules/9.9/kernel/fs/ext4/ext4.ko");
	free(p);
	assert_true(modpack_plain("ext4"));
	assert_true(modpack_plain("virtio_blk"));
	assert_false(modpack_plain("qla2xxx"));
}

static void firmware_lookup(void **state)
{
	char dir[] = "/tmp/kmods-fw-XXXXXX", dirs[256], *found;
	const char *suffix;

	(void)state;
	assert_non_null(mkdtemp(dir));
	sh("mkdir -p %s/a/9.9/v %s/b/v && echo 1 > %s/b/v/one.bin && echo 2 > %s/a/9.9/v/one.bin "
	   "&& echo 3 | xz > %s/b/v/two.bin.xz && echo 4 | zstd -q > %s/a/three.bin.zst",
	   dir, dir, dir, dir, dir, dir);
	snprintf(dirs, sizeof(dirs), "%s/a:%s/b", dir, dir);
	/* The per-version directory comes first. */
	assert_int_equal(modfile_firmware_find(dirs, "9.9", "v/one.bin", &found, &suffix), 0);
	assert_true(strstr(found, "/a/9.9/v/one.bin") != NULL);
	assert_string_equal(suffix, "");
	free(found);
	assert_int_equal(modfile_firmware_find(dirs, "1.0", "v/one.bin", &found, &suffix), 0);
	assert_true(strstr(found, "/b/v/one.bin") != NULL);
	free(found);
	assert_int_equal(modfile_firmware_find(dirs, "9.9", "v/two.bin", &found, &suffix), 0);
	assert_string_equal(suffix, ".xz");
	free(found);
	assert_int_equal(modfile_firmware_find(dirs, "9.9", "three.bin", &found, &suffix), 0);
	assert_string_equal(suffix, ".zst");
	free(found);
	assert_int_equal(modfile_firmware_find(dirs, "9.9", "four.bin", &found, &suffix), -ENOENT);
	sh("rm -rf %s", dir);
}

/* A module tree as `make modules_install INSTALL_MOD_PATH=ROOT` leaves it,
 * in the /usr/lib/modules layout, with compressed modules. */
static void synthetic_tree(void **state)
{
	char root[] = "/tmp/kmods-tree-XXXXXX", dir[1024], opt[1100];
	struct strv want = STRV_INIT;
	struct kmods *k;
	struct image *img;
	struct modtab t;

	(void)state;
	NEED_KERNEL();
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/usr/lib/modules/%s", root, kver);
	sh("mkdir -p %s/kernel/drivers/block %s/kernel/drivers/virtio && "
	   "cp %s/kernel/drivers/block/virtio_blk.ko %s/kernel/drivers/block/ && "
	   "cp %s/kernel/drivers/virtio/virtio.ko %s/kernel/drivers/virtio/virtio_ring.ko "
	   "%s/kernel/drivers/virtio/ && cp %s/modules.builtin %s/modules.builtin.modinfo %s/modules.order %s/ && "
	   "xz %s/kernel/drivers/virtio/virtio_ring.ko && zstd -q --rm %s/kernel/drivers/block/virtio_blk.ko",
	   dir, dir, moddir, dir, moddir, moddir, dir, moddir, moddir, moddir, dir, dir, dir);
	/* This depmod knows /lib/modules only: reach the tree through a
	 * merged-/usr link, then take the link away. */
	sh("ln -s usr/lib %s/lib && depmod -b %s %s && rm %s/lib", root, root, kver, root);
	assert_int_equal(kmods_moddir_find(root, kver, opt, sizeof(opt)), 0);
	assert_string_equal(opt, dir);
	assert_int_equal(kmods_open_config(&k, dir, kver, "/nonexistent"), 0);
	assert_int_equal(kmods_add(k, "virtio:d00000002v00001AF4", "test"), 0);
	snprintf(opt, sizeof(opt), "-d %s/usr", root);
	sh("ln -s usr/lib %s/lib", root);
	snprintf(opt, sizeof(opt), "-d %s", root);
	modprobe_names(opt, "virtio_blk", &want);
	assert_int_equal(kmods_count(k), want.len);
	table_of(k, &t);
	snprintf(opt, sizeof(opt), "/lib/modules/%s/kernel/drivers/block/virtio_blk.ko", kver);
	assert_string_equal(modtab_find(&t, "virtio_blk")->path, opt);
	modtab_free(&t);
	img = image_new();
	assert_int_equal(kmods_emit(k, img, dir), 0);
	assert_true(image_has(img, opt));
	image_free(img);
	kmods_free(k);
	strv_free(&want);
	sh("rm -rf %s", root);
}

/* A fake sysfs: a virtio disk vda (254:0) behind a PCI device. */
static void fake_sysfs(const char *s)
{
	sh("d=%s/devices/pci0000:00/0000:00:02.0 && mkdir -p $d/virtio1/block/vda %s/dev/block "
	   "%s/module/virtio_blk %s/bus/virtio/drivers/virtio_blk && "
	   "echo pci:v00001AF4d00001042sv00001AF4sd00001042bc01sc80i00 > $d/modalias && "
	   "echo virtio:d00000002v00001AF4 > $d/virtio1/modalias && "
	   "ln -s ../../../module/virtio_blk %s/bus/virtio/drivers/virtio_blk/module && "
	   "ln -s ../../../../bus/virtio/drivers/virtio_blk $d/virtio1/driver && "
	   "echo 254:0 > $d/virtio1/block/vda/dev && "
	   "ln -s ../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda %s/dev/block/254:0",
	   s, s, s, s, s, s);
}

static void host_scan(void **state)
{
	char dir[] = "/tmp/kmods-sys-XXXXXX", sys[128], mi[128];
	struct host_scan h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	snprintf(mi, sizeof(mi), "%s/mountinfo", dir);
	fake_sysfs(sys);
	sh("printf '22 27 0:21 / /proc rw - proc proc rw\\n27 1 254:0 / / rw,relatime - ext4 "
	   "/dev/vda rw\\n' > %s", mi);
	assert_int_equal(hostonly_scan(&h, sys, mi), 0);
	assert_true(h.root_seen);
	assert_string_equal(h.root_fstype, "ext4");
	assert_int_equal(h.modaliases.len, 2);
	assert_true(strv_contains(&h.root_modules, "virtio_blk"));
	assert_true(strv_contains(&h.root_modaliases, "virtio:d00000002v00001AF4"));
	assert_true(strv_contains(&h.root_modaliases,
				  "pci:v00001AF4d00001042sv00001AF4sd00001042bc01sc80i00"));
	hostonly_free(&h);
	/* A container's overlay root: nothing to follow, not an error. */
	sh("printf '27 1 0:52 / / rw - overlay overlay rw,lowerdir=/x\\n' > %s", mi);
	assert_int_equal(hostonly_scan(&h, sys, mi), 0);
	assert_false(h.root_seen);
	assert_string_equal(h.root_fstype, "overlay");
	assert_int_equal(h.modaliases.len, 2);
	hostonly_free(&h);
	sh("rm -rf %s", dir);
}

static void host_scan_crypt_stack(void **state)
{
	char dir[] = "/tmp/kmods-sys-XXXXXX", sys[128], mi[128];
	struct host_scan h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	snprintf(mi, sizeof(mi), "%s/mountinfo", dir);
	fake_sysfs(sys);
	sh("d=%s/devices/virtual/block/dm-0 && mkdir -p $d/dm $d/slaves && "
	   "echo CRYPT-LUKS2-abc-root > $d/dm/uuid && echo 253:0 > $d/dev && "
	   "ln -s ../../../../pci0000:00/0000:00:02.0/virtio1/block/vda $d/slaves/vda && "
	   "ln -s ../../devices/virtual/block/dm-0 %s/dev/block/253:0", sys, sys);
	sh("printf '27 1 253:0 / / rw - xfs /dev/mapper/root rw\\n' > %s", mi);
	assert_int_equal(hostonly_scan(&h, sys, mi), 0);
	assert_true(h.root_seen);
	assert_true(strv_contains(&h.root_modules, "dm_mod"));
	assert_true(strv_contains(&h.root_modules, "dm_crypt"));
	assert_true(strv_contains(&h.root_modules, "virtio_blk"));
	hostonly_free(&h);
	sh("rm -rf %s", dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deps_like_modprobe),
		cmocka_unit_test(alias_and_softdeps),
		cmocka_unit_test(unknown_name_fails_omit_drops),
		cmocka_unit_test(generic_set),
		cmocka_unit_test(modprobe_d_options_blacklist),
		cmocka_unit_test(emit_into_image),
		cmocka_unit_test(decompression_byte_for_byte),
		cmocka_unit_test(image_path_strips_suffix),
		cmocka_unit_test(firmware_lookup),
		cmocka_unit_test(synthetic_tree),
		cmocka_unit_test(host_scan),
		cmocka_unit_test(host_scan_crypt_stack),
	};

	return cmocka_run_group_tests(tests, kernel_find, NULL);
}
