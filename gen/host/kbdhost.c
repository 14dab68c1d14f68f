/* kbdhost: reading the host's keyboard layout and console font settings. */
#include "gen/host/kbdhost.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bkeymap.h"
#include "common/fileread.h"

#define KBDHOST_FILE_MAX (64 * 1024)

struct kbd_key {
	const char *name;
	size_t offset;   /* of a KBDHOST_VALUE_MAX field of struct kbd_host */
};

#define KBD_FIELD(f) offsetof(struct kbd_host, f)

static const struct kbd_key vconsole_keys[] = {
	{ "KEYMAP", KBD_FIELD(keymap) },
	{ "FONT", KBD_FIELD(font) },
	{ NULL, 0 },
};

static const struct kbd_key keyboard_keys[] = {
	{ "XKBLAYOUT", KBD_FIELD(xkb_layout) },
	{ "XKBVARIANT", KBD_FIELD(xkb_variant) },
	{ "XKBMODEL", KBD_FIELD(xkb_model) },
	{ "XKBOPTIONS", KBD_FIELD(xkb_options) },
	{ NULL, 0 },
};

static const struct kbd_key console_setup_keys[] = {
	{ "FONT", KBD_FIELD(cs_font) },
	{ "CODESET", KBD_FIELD(cs_codeset) },
	{ "FONTFACE", KBD_FIELD(cs_face) },
	{ "FONTSIZE", KBD_FIELD(cs_size) },
	{ NULL, 0 },
};

/* The value after '=' up to the line's end, unquoted, into out; false when
 * it does not fit or a quote is not closed. Shell escapes are not
 * expanded: a name never needs them. */
static bool value_unquote(const char *p, const char *end, char *out, size_t size)
{
	size_t n = 0;
	char quote = 0;

	for (; p < end; p++) {
		if (!quote && (*p == '"' || *p == '\'')) {
			quote = *p;
			continue;
		}
		if (quote && *p == quote) {
			quote = 0;
			continue;
		}
		if (!quote && (*p == '#' || *p == ' ' || *p == '\t'))
			break;
		if (n + 1 >= size)
			return false;
		out[n++] = *p;
	}
	out[n] = '\0';
	return quote == 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* "export KEY=VALUE" is the same assignment for the shell. */
static const char *skip_export(const char *p, const char *end)
{
	static const char word[] = "export";
	size_t len = sizeof(word) - 1;

	if ((size_t)(end - p) <= len || memcmp(p, word, len) != 0 ||
	    (p[len] != ' ' && p[len] != '\t'))
		return p;
	return skip_blanks(p + len, end);
}

/* One line: [export ]KEY=VALUE, stored when KEY is in keys. */
static void parse_line(const char *line, const char *end, const struct kbd_key *keys,
		       struct kbd_host *out)
{
	char value[KBDHOST_VALUE_MAX];

	line = skip_export(skip_blanks(line, end), end);
	for (const struct kbd_key *k = keys; k->name; k++) {
		size_t len = strlen(k->name);

		if ((size_t)(end - line) <= len || strncmp(line, k->name, len) != 0 ||
		    line[len] != '=')
			continue;
		/* An unusable value is dropped, not cut: a wrong layout is worse than none. */
		if (value_unquote(line + len + 1, end, value, sizeof(value)) &&
		    (value[0] == '\0' || bkeymap_name_ok(value)))
			memcpy((char *)out + k->offset, value, strlen(value) + 1);
		return;
	}
}

static int parse_text(const char *text, const struct kbd_key *keys, struct kbd_host *out)
{
	while (*text) {
		const char *end = strchr(text, '\n');

		if (!end)
			end = text + strlen(text);
		parse_line(text, end, keys, out);
		text = *end ? end + 1 : end;
	}
	return 0;
}

int kbdhost_parse_vconsole(const char *text, struct kbd_host *out)
{
	return parse_text(text, vconsole_keys, out);
}

int kbdhost_parse_keyboard(const char *text, struct kbd_host *out)
{
	return parse_text(text, keyboard_keys, out);
}

/* setupcon's spelling of a size: 8 wide is the height alone, any other
 * width follows the height ("16x32" is "32x16"). */
static void size_name(const char *size, char *out, size_t out_size)
{
	const char *x = strchr(size, 'x');

	if (!x)
		snprintf(out, out_size, "%s", size);
	else if (x - size == 1 && size[0] == '8')
		snprintf(out, out_size, "%s", x + 1);
	else
		snprintf(out, out_size, "%sx%.*s", x + 1, (int)(x - size), size);
}

void kbdhost_console_setup_font(const struct kbd_host *k, char *out, size_t size)
{
	char sz[KBDHOST_VALUE_MAX];
	const char *codeset = k->cs_codeset;

	out[0] = '\0';
	if (k->cs_font[0]) {
		snprintf(out, size, "%s", k->cs_font);
		return;
	}
	if (!k->cs_face[0] || !k->cs_size[0])
		return;
	if (!codeset[0] || strcmp(codeset, "guess") == 0)
		codeset = "Uni2";
	size_name(k->cs_size, sz, sizeof(sz));
	if (snprintf(out, size, "%s-%s%s", codeset, k->cs_face, sz) >= (int)size)
		out[0] = '\0';
}

int kbdhost_parse_console_setup(const char *text, struct kbd_host *out)
{
	parse_text(text, console_setup_keys, out);
	if (!out->cs_font[0] && strcmp(out->cs_face, "Fixed") == 0 && strcmp(out->cs_size, "8x16") == 0)
		return 0;
	if (!out->font[0])
		kbdhost_console_setup_font(out, out->font, sizeof(out->font));
	return 0;
}

/* Parse ROOT/rel with parse; a missing or unreadable file is no setting. */
static void read_file(const char *root, const char *rel, struct kbd_host *out,
		      int (*parse)(const char *, struct kbd_host *))
{
	char path[PATH_MAX];
	char *text;
	size_t len;

	if (snprintf(path, sizeof(path), "%s%s", root, rel) >= (int)sizeof(path) ||
	    file_read_all(path, KBDHOST_FILE_MAX, &text, &len) < 0)
		return;
	/* A NUL inside ends the text there: the rest is not a setting. */
	parse(text, out);
	free(text);
}

/* The font: vconsole.conf's FONT=, else console-setup's. */
static void read_font(const char *root, struct kbd_host *out)
{
	if (out->font[0]) {
		snprintf(out->font_from, sizeof(out->font_from), "/etc/vconsole.conf");
		return;
	}
	read_file(root, "/etc/default/console-setup", out, kbdhost_parse_console_setup);
	if (out->font[0])
		snprintf(out->font_from, sizeof(out->font_from), "/etc/default/console-setup");
}

int kbdhost_read(const char *root, struct kbd_host *out)
{
	memset(out, 0, sizeof(*out));
	read_file(root, "/etc/vconsole.conf", out, kbdhost_parse_vconsole);
	read_font(root, out);
	if (out->keymap[0]) {
		snprintf(out->from, sizeof(out->from), "/etc/vconsole.conf");
		return 0;
	}
	read_file(root, "/etc/default/keyboard", out, kbdhost_parse_keyboard);
	if (out->xkb_layout[0])
		snprintf(out->from, sizeof(out->from), "/etc/default/keyboard");
	else if (out->font[0])
		snprintf(out->from, sizeof(out->from), "/etc/vconsole.conf");
	return out->xkb_layout[0] || out->font[0] ? 0 : -ENOENT;
}
