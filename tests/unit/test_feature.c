/* Unit tests: the table of the image's optional parts (gen/feature/feature.c)
 * and what each decides from the options and the host read once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "gen/opts/build_ctx.h"
#include "gen/opts/build_opts.h"
#include "gen/feature/feature.h"
#include "gen/host/hostfacts.h"

/* The feature called name wants this build, or fails the test if there is none. */
static bool wants(const struct build_ctx *c, const char *name)
{
	for (const struct feature *const *f = feature_table; *f; f++)
		if (strcmp((*f)->name, name) == 0)
			return (*f)->wanted(c);
	fail_msg("no feature named %s", name);
	return false;
}

static void every_entry_is_complete(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct feature *const *f = feature_table; *f; f++, n++) {
		assert_non_null((*f)->name);
		assert_non_null((*f)->wanted);
		assert_true((*f)->add_modules || (*f)->add_files);
		for (const struct feature *const *g = feature_table; g != f; g++)
			assert_string_not_equal((*g)->name, (*f)->name);
	}
	/* way out, block stacks, TPM2, FIDO2, fsck, iSCSI, kdump, rescue, net, microcode,
	 * unxz, resume, ssh, clevis, keymap, font, hooks, live, multipath, NVMe/TCP */
	assert_int_equal(n, 21);
}

/* iSCSI needs the network: the net entry comes first, so its modules do. */
static void net_comes_before_iscsi(void **state)
{
	int net = -1, iscsi = -1, i = 0;

	(void)state;
	for (const struct feature *const *f = feature_table; *f; f++, i++) {
		if (strcmp((*f)->name, "net") == 0)
			net = i;
		if (strcmp((*f)->name, "iSCSI") == 0)
			iscsi = i;
	}
	assert_true(net >= 0 && iscsi > net);
}

static void generic_image_wants_what_is_asked(void **state)
{
	struct build_opts o;
	struct build_ctx c = { .opts = &o };

	(void)state;
	build_opts_init(&o);
	o.mode = BUILD_GENERIC;
	assert_false(wants(&c, "net"));
	assert_false(wants(&c, "iSCSI"));
	assert_false(wants(&c, "kdump"));
	assert_false(wants(&c, "block stacks"));
	assert_false(wants(&c, "TPM2"));
	assert_false(wants(&c, "FIDO2"));
	assert_false(wants(&c, "resume"));
	assert_false(wants(&c, "ssh"));
	assert_false(wants(&c, "live"));
	assert_true(wants(&c, "fsck"));
	assert_true(wants(&c, "rescue"));
	/* The SSH server runs over the network: --ssh brings its drivers. */
	o.ssh = true;
	assert_true(wants(&c, "ssh"));
	assert_true(wants(&c, "net"));
	o.ssh = false;
	o.iscsi = true;
	assert_true(wants(&c, "iSCSI"));
	assert_true(wants(&c, "net"));
	/* NVMe/TCP runs over the network too. */
	o.iscsi = false;
	assert_false(wants(&c, "NVMe/TCP"));
	o.nvmf = true;
	assert_true(wants(&c, "NVMe/TCP"));
	assert_true(wants(&c, "net"));
	o.iscsi = true;
	o.no_fsck = true;
	o.kdump = true;
	o.block_stacks = true;
	o.microcode = MICROCODE_NONE;
	assert_false(wants(&c, "fsck"));
	assert_true(wants(&c, "kdump"));
	assert_true(wants(&c, "block stacks"));
	assert_false(wants(&c, "microcode"));
	o.tpm2 = true;
	assert_true(wants(&c, "TPM2"));
	assert_false(wants(&c, "FIDO2"));
	o.fido2 = true;
	assert_true(wants(&c, "FIDO2"));
	assert_false(wants(&c, "PKCS#11"));
	o.pkcs11 = true;
	assert_true(wants(&c, "PKCS#11"));
	build_opts_free(&o);
}

/* A host-only image decides from the host: an NFS root or an iSCSI
 * session brings the network in without --net. */
static void host_only_image_follows_the_host(void **state)
{
	struct build_opts o;
	struct host_facts h;
	struct build_ctx c = { .opts = &o, .host = &h };

	(void)state;
	build_opts_init(&o);
	memset(&h, 0, sizeof(h));
	assert_false(wants(&c, "net"));
	assert_false(wants(&c, "iSCSI"));
	assert_true(wants(&c, "resume"));
	assert_true(wants(&c, "block stacks"));
	h.root_nfs = true;
	assert_true(wants(&c, "net"));
	assert_false(wants(&c, "iSCSI"));
	h.root_nfs = false;
	h.iscsi_session = true;
	assert_true(wants(&c, "iSCSI"));
	assert_true(wants(&c, "net"));
	build_opts_free(&o);
}

/* The way out at shutdown: every generic image; a host-only one only when
 * its host's root has a layer to take down, or could not be followed. */
static void way_out_follows_the_root(void **state)
{
	struct build_opts o;
	struct host_facts h;
	struct build_ctx c = { .opts = &o };

	(void)state;
	build_opts_init(&o);
	memset(&h, 0, sizeof(h));
	o.mode = BUILD_GENERIC;
	assert_true(wants(&c, "way out"));
	c.host = &h;
	o.mode = BUILD_HOST_ONLY;
	assert_true(wants(&c, "way out"));     /* the root was not followed */
	h.stack.root_seen = true;
	assert_false(wants(&c, "way out"));    /* a plain disk: nothing under it */
	assert_int_equal(strv_push(&h.stack.root_modules, "virtio_blk"), 0);
	assert_false(wants(&c, "way out"));
	assert_int_equal(strv_push(&h.stack.root_modules, "dm_mod"), 0);
	assert_true(wants(&c, "way out"));     /* LUKS, LVM, dm-verity, multipath */
	strv_free(&h.stack.root_modules);
	assert_int_equal(strv_push(&h.stack.root_modules, "md_mod"), 0);
	assert_true(wants(&c, "way out"));
	strv_free(&h.stack.root_modules);
	h.stack.lvm = true;
	assert_true(wants(&c, "way out"));
	h.stack.lvm = false;
	h.stack.n_luks = 1;
	assert_true(wants(&c, "way out"));
	h.stack.n_luks = 0;
	h.stack.n_md = 1;
	assert_true(wants(&c, "way out"));
	h.stack.n_md = 0;
	h.root_nfs = true;
	assert_true(wants(&c, "way out"));
	h.root_nfs = false;
	h.iscsi_session = true;
	assert_true(wants(&c, "way out"));
	h.iscsi_session = false;
	assert_false(wants(&c, "way out"));
	/* Asked for the stacks or a network root: carried whatever the host. */
	o.block_stacks = true;
	assert_true(wants(&c, "way out"));
	o.block_stacks = false;
	o.iscsi = true;
	assert_true(wants(&c, "way out"));
	o.iscsi = false;
	o.net = true;
	assert_true(wants(&c, "way out"));
	build_opts_free(&o);
}

/* A LUKS2 header whose JSON area has these tokens, at path. */
static void write_header(const char *path, const char *tokens)
{
	char hdr[16384] = "LUKS\xba\xbe\0\2";
	FILE *f = fopen(path, "w");

	hdr[14] = 0x40;    /* hdr_size 16384, big-endian at 8 */
	snprintf(hdr + 4096, sizeof(hdr) - 4096, "{\"tokens\":{%s}}", tokens);
	assert_non_null(f);
	assert_int_equal(fwrite(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	fclose(f);
}

/* A host-only image carries the TPM2 (FIDO2) pieces only when a container
 * under the root (or resume device) has a systemd-tpm2 (systemd-fido2)
 * token in its header. */
static void host_only_tpm2_follows_the_tokens(void **state)
{
	char path[] = "/tmp/lifeboat-feature-luks-XXXXXX";
	struct build_opts o;
	struct host_facts h;
	struct build_ctx c = { .opts = &o, .host = &h };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	build_opts_init(&o);
	memset(&h, 0, sizeof(h));
	assert_false(wants(&c, "TPM2"));
	/* The scan names the container's device under /dev. */
	h.stack.n_luks = 1;
	snprintf(h.stack.luks[0].dev, sizeof(h.stack.luks[0].dev), "..%s", path);
	write_header(path, "\"0\":{\"type\":\"clevis\"}");
	assert_false(wants(&c, "TPM2"));
	write_header(path, "\"0\":{\"type\":\"clevis\"},\"1\":{\"type\":\"systemd-tpm2\"}");
	assert_true(wants(&c, "TPM2"));
	assert_false(wants(&c, "FIDO2"));
	/* A systemd-fido2 token: the FIDO2 pieces, from the same table. */
	write_header(path, "\"0\":{\"type\":\"systemd-fido2\"}");
	assert_true(wants(&c, "FIDO2"));
	assert_false(wants(&c, "TPM2"));
	assert_false(wants(&c, "PKCS#11"));
	write_header(path, "\"0\":{\"type\":\"systemd-pkcs11\",\"pkcs11-uri\":\"pkcs11:token=t\"}");
	assert_true(wants(&c, "PKCS#11"));
	assert_false(wants(&c, "FIDO2"));
	unlink(path);
	assert_false(wants(&c, "TPM2"));
	build_opts_free(&o);
}

/* The keyboard layout: --keymap always; the host's unless it is the
 * kernel's own (US). The clevis unlock: --clevis, or a host root with
 * clevis bindings; the network only when one names a Tang server. */
static void keymap_and_clevis_follow_the_host(void **state)
{
	struct build_opts o;
	struct host_facts h;
	struct build_ctx c = { .opts = &o, .host = NULL };

	(void)state;
	build_opts_init(&o);
	memset(&h, 0, sizeof(h));
	assert_false(wants(&c, "keymap"));
	assert_false(wants(&c, "clevis"));
	assert_int_equal(build_opts_set(&o, "keymap", "de", "test"), 0);
	assert_true(wants(&c, "keymap"));
	assert_int_equal(build_opts_set(&o, "clevis", NULL, "test"), 0);
	assert_true(wants(&c, "clevis"));
	assert_true(wants(&c, "net"));
	assert_true(wants(&c, "block stacks"));
	build_opts_free(&o);

	build_opts_init(&o);
	c.host = &h;
	strcpy(h.keyboard.xkb_layout, "us");
	assert_false(wants(&c, "keymap"));
	strcpy(h.keyboard.xkb_variant, "intl");
	assert_true(wants(&c, "keymap"));
	h.keyboard_status = -ENOENT;
	assert_false(wants(&c, "keymap"));
	h.keyboard_status = 0;
	memset(&h.keyboard, 0, sizeof(h.keyboard));
	strcpy(h.keyboard.keymap, "de-latin1");
	assert_true(wants(&c, "keymap"));
	strcpy(h.keyboard.keymap, "us");
	assert_false(wants(&c, "keymap"));
	assert_false(wants(&c, "clevis"));
	/* A tpm2 (or sss without tang) binding: lifeboat-clevis, no network. */
	h.root_clevis = true;
	assert_true(wants(&c, "clevis"));
	assert_false(wants(&c, "net"));
	h.root_tang = true;
	assert_true(wants(&c, "clevis"));
	assert_true(wants(&c, "net"));
	build_opts_free(&o);
}

/* The console font: --font, or the host's when it names one. */
static void font_follows_the_host(void **state)
{
	struct build_opts o;
	struct host_facts h;
	struct build_ctx c = { .opts = &o, .host = NULL };

	(void)state;
	build_opts_init(&o);
	memset(&h, 0, sizeof(h));
	assert_false(wants(&c, "font"));
	assert_int_equal(build_opts_set(&o, "font", "Uni2-Terminus32x16", "test"), 0);
	assert_true(wants(&c, "font"));
	build_opts_free(&o);

	build_opts_init(&o);
	c.host = &h;
	assert_false(wants(&c, "font"));
	strcpy(h.keyboard.font, "eurlatgr");
	assert_true(wants(&c, "font"));
	h.keyboard_status = -ENOENT;
	assert_false(wants(&c, "font"));
	build_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_entry_is_complete),
		cmocka_unit_test(net_comes_before_iscsi),
		cmocka_unit_test(generic_image_wants_what_is_asked),
		cmocka_unit_test(host_only_image_follows_the_host),
		cmocka_unit_test(way_out_follows_the_root),
		cmocka_unit_test(host_only_tpm2_follows_the_tokens),
		cmocka_unit_test(keymap_and_clevis_follow_the_host),
		cmocka_unit_test(font_follows_the_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
