/* Fake-root case: a LUKS container's unlock order with the real steps and
 * stand-in tools (cryptsetup, lifeboat-clevis, a keyscript that write to
 * the shim's record). Before the resume decision its key device is not
 * mounted: Tang is asked, then the keyscript (where the passphrase would
 * be). After the decision the key file on its device opens it, and the
 * root inside appears. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "blockstack/blockstack.h"
#include "bootlib/devwait.h"
#include "bootlib/modload.h"
#include "common/modtab.h"
#include "init/bootargs.h"
#include "tests/fakeroot/fakeroot.h"

#define LUKS_UUID "6f1d2b3c-0002-4a5b-8c6d-7e8f9a0b1c2d"

static const char cmdline[] = "root=LABEL=fakeroot rd.luks.uuid=" LUKS_UUID
			      " rd.luks.key=/key:LABEL=KEYS rd.timeout=5\n";
static const char crypttab[] = "cryptroot UUID=" LUKS_UUID
			       " none luks,keyscript=/lib/cryptsetup/scripts/fakeask,tries=1\n";
static const char modules_tab[] =
	"m\tdm_mod\t/lib/modules/fake/dm_mod.ko\t-\t\n"
	"m\tdm_crypt\t/lib/modules/fake/dm_crypt.ko\tdm_mod\t\n"
	"m\text4\t/lib/modules/fake/ext4.ko\t-\t\n";

/* The stand-ins say whose key they were handed, never the key. */
static const char cryptsetup_sh[] =
	"#!/bin/sh\n"
	"key=$(cat)\n"
	"case $key in\n"
	"keydev-key) who=\"the key device's key\" rc=0 ;;\n"
	"keyscript-key) who=\"the keyscript's key\" rc=2 ;;\n"
	"*) who=\"another key\" rc=2 ;;\n"
	"esac\n"
	"[ $rc = 0 ] && said=accepted || said=refused\n"
	"echo \"cryptsetup $* <$who> $said\" >> %1$s/calls.log\n"
	"exit $rc\n";
static const char clevis_sh[] =
	"#!/bin/sh\necho \"lifeboat-clevis $1: no binding\" >> %1$s/calls.log\nexit 65\n";
static const char keyscript_sh[] =
	"#!/bin/sh\necho \"keyscript $CRYPTTAB_NAME\" >> %1$s/calls.log\nprintf keyscript-key\n";

static void script_write(const struct fr_tree *t, const char *rel, const char *fmt)
{
	char text[1024], path[512];

	snprintf(text, sizeof(text), fmt, t->dir);
	assert_int_equal(fr_write(t, rel, text), 0);
	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	assert_int_equal(chmod(path, 0755), 0);
}

static struct fr_tree tree;

static int tree_fill(void **state)
{
	struct fr_tree *t = &tree;

	(void)state;
	assert_int_equal(fr_tree_make(t), 0);
	assert_int_equal(fr_write(t, "proc/cmdline", cmdline), 0);
	assert_int_equal(fr_write(t, "etc/crypttab", crypttab), 0);
	assert_int_equal(fr_modtab(t, modules_tab), 0);
	script_write(t, "usr/sbin/cryptsetup", cryptsetup_sh);
	script_write(t, "usr/lib/lifeboat/lifeboat-clevis", clevis_sh);
	script_write(t, "lib/cryptsetup/scripts/fakeask", keyscript_sh);
	/* What the key device's filesystem holds, where it is mounted. */
	assert_int_equal(fr_write(t, "run/lifeboat/keydev/key", "keydev-key"), 0);
	assert_int_equal(fr_luks1(t, "images/luks.img", LUKS_UUID), 0);
	assert_int_equal(fr_ext4(t, "images/keys.img", "KEYS", "6f1d2b3c-0003-4a5b-8c6d-7e8f9a0b1c2d"), 0);
	assert_int_equal(fr_ext4(t, "images/root.img", "fakeroot", "6f1d2b3c-0004-4a5b-8c6d-7e8f9a0b1c2d"), 0);
	assert_int_equal(fr_block_add(t, "vdb", 254, 16, "images/luks.img"), 0);
	assert_int_equal(fr_block_add(t, "vdc", 254, 32, "images/keys.img"), 0);
	return 0;
}

/* What dm-crypt does once cryptsetup opened the container. */
static const struct fr_disk mapping = { "dm-0", 253, 0, "images/root.img" };

static void wait_root(struct boot_args *args, unsigned int sec, int expect, struct found_dev *dev)
{
	struct dev_spec spec;

	assert_int_equal(devspec_parse(args->root.root, &spec), 0);
	assert_int_equal(devwait_find(&spec, sec, dev), expect);
}

static void key_device_only_after_the_decision(void **state)
{
	const struct fr_tree *t = &tree;
	struct boot_args args;
	struct found_dev dev;
	char calls[8192];
	pid_t kernel;

	(void)state;
	bootargs_init(&args);
	assert_int_equal(bootargs_load(&args), 0);
	assert_int_equal(modload_open(MODTAB_PATH), 0);
	blockstack_setup(&args.stacks);

	/* Before the decision: the key device stays unmounted, the next
	 * steps are asked in order, and the keyscript's key is refused. */
	wait_root(&args, 1, -ETIMEDOUT, &dev);
	fr_calls(t, calls, sizeof(calls));
	assert_string_equal(calls, "finit_module /lib/modules/fake/dm_mod.ko -\n"
				   "finit_module /lib/modules/fake/dm_crypt.ko -\n"
				   "lifeboat-clevis /dev/vdb: no binding\n"
				   "keyscript cryptroot\n"
				   "cryptsetup open --type luks --key-file=- /dev/vdb cryptroot "
				   "<the keyscript's key> refused\n");

	/* After it: the key file on its device, mounted read-only, opens it. */
	kernel = fr_after_load(t, "accepted", &mapping);
	blockstack_resume_decided();
	wait_root(&args, 5, 0, &dev);
	assert_int_equal(fr_after_load_join(kernel), 0);
	assert_string_equal(dev.devname, "dm-0");
	fr_calls(t, calls, sizeof(calls));
	assert_non_null(strstr(calls, "refused\n"
				      "finit_module /lib/modules/fake/ext4.ko -\n"
				      "mount /dev/vdc /run/lifeboat/keydev ext4 0xf noload\n"
				      "umount /run/lifeboat/keydev 0\n"
				      "cryptsetup open --type luks --key-file=- /dev/vdb cryptroot "
				      "<the key device's key> accepted\n"));
	modload_close();
	bootargs_free(&args);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(key_device_only_after_the_decision, tree_fill,
						fr_tree_teardown),
	};

	(void)argc;
	fr_preload(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
