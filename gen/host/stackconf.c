/* stackconf: choose the host's crypttab and mdadm.conf lines and the rd.* parameters for the stack under the root. */
#include "gen/host/stackconf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/crypttab.h"

/* Whether a crypttab source names the container l. */
static bool source_is(const char *source, const struct host_luks *l, source_resolver resolve)
{
	char uuid[CRYPTTAB_FIELD_MAX], dev[256];

	if (crypttab_source_uuid(source, uuid, sizeof(uuid)))
		return crypttab_uuid_equal(uuid, l->uuid);
	if (strncmp(source, "/dev/", 5) == 0 && strcmp(source + 5, l->dev) == 0)
		return true;
	return l->dev[0] && resolve && resolve(source, dev, sizeof(dev)) && strcmp(dev, l->dev) == 0;
}

/* The host's crypttab line for l, if any, into e. */
static bool host_line_find(const char *text, const struct host_luks *l, source_resolver resolve,
			   struct crypttab_entry *e)
{
	char line[1024];

	if (!text)
		return false;
	while (*text) {
		size_t len = strcspn(text, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), text);
		text += len + (text[len] == '\n');
		if (crypttab_parse_line(line, e) == 1 && source_is(e->source, l, resolve))
			return true;
	}
	return false;
}

/* Whether the key field of e is its keyscript's argument (kept as written,
 * whatever it looks like: decrypt_keyctl's identifier, passdev's
 * DEVICE:PATH) rather than a key file. */
static bool crypttab_keyscript_arg(const struct crypttab_entry *e)
{
	struct luks_opts o;

	luks_opts_init(&o);
	luks_opts_parse(e->options, &o);
	return o.keyscript[0] != '\0';
}

/* The name the host gives l now, unless it is the default one. */
static bool mapping_entry(const struct host_luks *l, struct crypttab_entry *e)
{
	char dflt[64];

	snprintf(dflt, sizeof(dflt), "luks-%s", l->uuid);
	if (!l->dm_name[0] || strcmp(l->dm_name, dflt) == 0)
		return false;
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", l->dm_name);
	strcpy(e->keyfile, "none");
	return true;
}

int stackconf_crypttab(const struct host_scan *h, const char *host_text, source_resolver resolve,
		       const struct strv *image_files, char **out, char **left_out)
{
	size_t out_len = 0, left_len = 0;
	FILE *f = open_memstream(out, &out_len);
	FILE *left = f ? open_memstream(left_out, &left_len) : NULL;

	if (!left) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->n_luks; i++) {
		const struct host_luks *l = &h->luks[i];
		struct crypttab_entry e;
		const char *key = "none";

		if (!host_line_find(host_text, l, resolve, &e) && !mapping_entry(l, &e))
			continue;
		if (crypttab_keyscript_arg(&e) ||
		    (crypttab_has_keyfile(&e) && strv_contains(image_files, e.keyfile)))
			key = e.keyfile;
		else if (crypttab_has_keyfile(&e))
			fprintf(left, "%s\n", e.keyfile);
		fprintf(f, "%s UUID=%s %s%s%s\n", e.name, l->uuid, key, e.options[0] ? " " : "",
			e.options);
	}
	fclose(left);
	fclose(f);
	return *out && *left_out ? 0 : -ENOMEM;
}

int stackconf_crypttab_each(const char *text, crypttab_line_fn fn, void *ctx)
{
	char line[1024];
	int r = 0;

	while (r == 0 && text && *text) {
		size_t len = strcspn(text, "\n");
		struct crypttab_entry e;
		struct luks_opts o;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), text);
		text += len + (text[len] == '\n');
		if (crypttab_parse_line(line, &e) != 1)
			continue;
		luks_opts_init(&o);
		luks_opts_parse(e.options, &o);
		r = fn(ctx, &e, &o);
	}
	return r;
}

struct check {
	crypttab_note_fn note;
	void *ctx;
	int r;
};

static int check_line(void *ctx, const struct crypttab_entry *e, const struct luks_opts *o)
{
	struct check *c = ctx;

	if (o->n_notes)
		c->note(c->ctx, e->name, o);
	if (o->flags & LUKS_OPT_HEADER)
		c->r = -ENOTSUP;
	return 0;
}

int stackconf_crypttab_check(const char *text, crypttab_note_fn note, void *ctx)
{
	struct check c = { note, ctx, 0 };

	stackconf_crypttab_each(text, check_line, &c);
	return c.r;
}

/* mdadm's spelling of an array UUID: four groups of eight hex digits. */
static bool mdadm_uuid(const char *uuid, char *out, size_t size)
{
	char hex[33];

	if (!uuid || !crypttab_uuid_hex(uuid, hex))
		return false;
	snprintf(out, size, "%.8s:%.8s:%.8s:%.8s", hex, hex + 8, hex + 16, hex + 24);
	return true;
}

/* The UUID= word of an ARRAY line (and its continuation lines). */
static bool array_has_uuid(const char *line, size_t len, const char *uuid)
{
	for (const char *p = line; p < line + len; p++) {
		char value[64];
		size_t n;

		if (strncmp(p, "UUID=", 5) != 0 || (p > line && p[-1] != ' ' && p[-1] != '\t' &&
						    p[-1] != '\n'))
			continue;
		n = strcspn(p + 5, " \t\n");
		if (n >= sizeof(value) || p + 5 + n > line + len)
			continue;
		snprintf(value, sizeof(value), "%.*s", (int)n, p + 5);
		if (crypttab_uuid_equal(value, uuid))
			return true;
	}
	return false;
}

/* The host's ARRAY entry (a line starting "ARRAY" and the indented lines
 * after it) with this UUID: written to f, true. */
static bool host_array_copy(const char *text, const char *uuid, FILE *f)
{
	if (!text)
		return false;
	while (*text) {
		size_t len = strcspn(text, "\n");
		const char *start = text;

		text += len + (text[len] == '\n');
		if (strncmp(start, "ARRAY", 5) != 0 || (start[5] != ' ' && start[5] != '\t'))
			continue;
		while (*text == ' ' || *text == '\t') {   /* continuation lines */
			size_t more = strcspn(text, "\n");

			text += more + (text[more] == '\n');
		}
		len = (size_t)(text - start);
		if (array_has_uuid(start, len, uuid)) {
			fprintf(f, "%.*s%s", (int)len, start, start[len - 1] == '\n' ? "" : "\n");
			return true;
		}
	}
	return false;
}

int stackconf_mdadm(const struct host_scan *h, const char *host_text, const char *const uuids[],
		    char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);

	if (!f)
		return -ENOMEM;
	fprintf(f, "# mdadm.conf of the lifeboat initramfs: the arrays under the root\n");
	for (size_t i = 0; i < h->n_md; i++) {
		char md_uuid[40];

		if (!mdadm_uuid(uuids[i], md_uuid, sizeof(md_uuid)) ||
		    host_array_copy(host_text, uuids[i], f))
			continue;
		fprintf(f, "ARRAY /dev/%s UUID=%s\n", h->md[i].dev, md_uuid);
	}
	fclose(f);
	return *out ? 0 : -ENOMEM;
}

int stackconf_cmdline(const struct host_scan *h, const char *const uuids[], char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	const char *sep = "";

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_luks; i++, sep = " ")
		fprintf(f, "%srd.luks.uuid=%s", sep, h->luks[i].uuid);
	for (size_t i = 0; i < h->n_md; i++)
		if (uuids[i] && uuids[i][0]) {
			fprintf(f, "%srd.md.uuid=%s", sep, uuids[i]);
			sep = " ";
		}
	for (size_t i = 0; i < h->lvm_vgs.len; i++, sep = " ")
		fprintf(f, "%srd.lvm.vg=%s", sep, h->lvm_vgs.items[i]);
	if (sep[0])
		fputc('\n', f);
	fclose(f);
	return *out ? 0 : -ENOMEM;
}
