/* Unit tests: the host's keyboard layout as the generator reads it
 * (gen/host/kbdhost.c: vconsole.conf, /etc/default/keyboard) and the binary
 * keymap of `loadkeys -b` that the generator checks and the init loads
 * (common/bkeymap.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bkeymap.h"
#include "gen/host/kbdhost.h"

static void vconsole_conf(void **state)
{
	struct kbd_host k;

	(void)state;
	memset(&k, 0, sizeof(k));
	kbdhost_parse_vconsole("# written by localectl\nKEYMAP=de-latin1-nodeadkeys\n"
			       "FONT=\"eurlatgr\"\nKEYMAP_TOGGLE=us\n", &k);
	assert_string_equal(k.keymap, "de-latin1-nodeadkeys");
	assert_string_equal(k.font, "eurlatgr");
	/* Quotes of either kind, export, blanks before, a comment after. */
	memset(&k, 0, sizeof(k));
	kbdhost_parse_vconsole("  export KEYMAP='fr'  # French\n\tFONT=lat9w-16\n", &k);
	assert_string_equal(k.keymap, "fr");
	assert_string_equal(k.font, "lat9w-16");
	/* The last assignment wins, as in a shell. */
	kbdhost_parse_vconsole("KEYMAP=us\nKEYMAP=uk", &k);
	assert_string_equal(k.keymap, "uk");
	/* Keys that only start like ours are other keys. */
	memset(&k, 0, sizeof(k));
	kbdhost_parse_vconsole("KEYMAPX=de\nXKEYMAP=de\nKEYMAP\nFONT_MAP=8859-2\n", &k);
	assert_string_equal(k.keymap, "");
	assert_string_equal(k.font, "");
}

/* A value that could leave the keymap directory or become an option of
 * loadkeys is dropped whole, never cut or kept. */
static void vconsole_unsafe_values(void **state)
{
	struct kbd_host k;
	char long_line[400];

	(void)state;
	memset(&k, 0, sizeof(k));
	kbdhost_parse_vconsole("KEYMAP=../../etc/shadow\nFONT=-h\n", &k);
	assert_string_equal(k.keymap, "");
	assert_string_equal(k.font, "");
	kbdhost_parse_vconsole("KEYMAP=\"de latin1\"\nFONT=\"unclosed\n", &k);
	assert_string_equal(k.keymap, "");
	assert_string_equal(k.font, "");
	kbdhost_parse_vconsole("KEYMAP=.hidden\nKEYMAP=a/b\n", &k);
	assert_string_equal(k.keymap, "");
	memset(long_line, 'a', sizeof(long_line));
	memcpy(long_line, "KEYMAP=", 7);
	long_line[sizeof(long_line) - 1] = '\0';
	kbdhost_parse_vconsole(long_line, &k);
	assert_string_equal(k.keymap, "");
	/* An empty value clears an earlier one. */
	kbdhost_parse_vconsole("KEYMAP=de\nKEYMAP=\n", &k);
	assert_string_equal(k.keymap, "");
}

static void default_keyboard(void **state)
{
	struct kbd_host k;

	(void)state;
	memset(&k, 0, sizeof(k));
	kbdhost_parse_keyboard("# KEYBOARD CONFIGURATION FILE\n\n"
			       "XKBMODEL=\"pc105\"\nXKBLAYOUT=\"de\"\nXKBVARIANT=\"nodeadkeys\"\n"
			       "XKBOPTIONS=\"ctrl:nocaps,compose:rwin\"\n\nBACKSPACE=\"guess\"\n", &k);
	assert_string_equal(k.xkb_model, "pc105");
	assert_string_equal(k.xkb_layout, "de");
	assert_string_equal(k.xkb_variant, "nodeadkeys");
	assert_string_equal(k.xkb_options, "ctrl:nocaps,compose:rwin");
	/* vconsole.conf's keys are not Debian's, and the other way round. */
	assert_string_equal(k.keymap, "");
	memset(&k, 0, sizeof(k));
	kbdhost_parse_keyboard("KEYMAP=de\n", &k);
	assert_string_equal(k.keymap, "");
	kbdhost_parse_vconsole("XKBLAYOUT=de\n", &k);
	assert_string_equal(k.xkb_layout, "");
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* vconsole.conf's KEYMAP= wins over /etc/default/keyboard; without it
 * Debian's file gives the layout; neither: -ENOENT. */
static void read_host_root(void **state)
{
	char dir[] = "/tmp/lifeboat-kbdhost-XXXXXX", sub[600];
	struct kbd_host k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/etc", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/etc/default", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(kbdhost_read(dir, &k), -ENOENT);

	write_file(dir, "/etc/default/keyboard", "XKBLAYOUT=de\nXKBVARIANT=nodeadkeys\n");
	assert_int_equal(kbdhost_read(dir, &k), 0);
	assert_string_equal(k.xkb_layout, "de");
	assert_string_equal(k.from, "/etc/default/keyboard");

	write_file(dir, "/etc/vconsole.conf", "FONT=eurlatgr\n");
	assert_int_equal(kbdhost_read(dir, &k), 0);
	assert_string_equal(k.xkb_layout, "de");
	assert_string_equal(k.font, "eurlatgr");

	write_file(dir, "/etc/vconsole.conf", "KEYMAP=fr\n");
	assert_int_equal(kbdhost_read(dir, &k), 0);
	assert_string_equal(k.keymap, "fr");
	assert_string_equal(k.xkb_layout, "");
	assert_string_equal(k.from, "/etc/vconsole.conf");

	/* The font: console-setup's when vconsole.conf names none. */
	write_file(dir, "/etc/default/console-setup", "CODESET=\"Lat15\"\nFONTFACE=\"Terminus\"\n"
		   "FONTSIZE=\"16x32\"\n");
	assert_int_equal(kbdhost_read(dir, &k), 0);
	assert_string_equal(k.font, "Lat15-Terminus32x16");
	assert_string_equal(k.font_from, "/etc/default/console-setup");
	write_file(dir, "/etc/vconsole.conf", "KEYMAP=fr\nFONT=eurlatgr\n");
	assert_int_equal(kbdhost_read(dir, &k), 0);
	assert_string_equal(k.font, "eurlatgr");
	assert_string_equal(k.font_from, "/etc/vconsole.conf");

	snprintf(sub, sizeof(sub), "rm -rf '%s'", dir);
	assert_int_equal(system(sub), 0);
}

/* setupcon's font names from console-setup's fields; Debian's default
 * (Fixed 8x16) names none; FONT= wins; a value with a blank is dropped. */
static void console_setup_fonts(void **state)
{
	static const struct {
		const char *text, *font;
	} cases[] = {
		{ "CODESET=\"guess\"\nFONTFACE=\"Fixed\"\nFONTSIZE=\"8x16\"\n", "" },
		{ "CODESET=\"guess\"\nFONTFACE=\"Terminus\"\nFONTSIZE=\"8x16\"\n", "Uni2-Terminus16" },
		{ "CODESET=Lat2\nFONTFACE=TerminusBold\nFONTSIZE=12x24\n", "Lat2-TerminusBold24x12" },
		{ "FONTFACE=Fixed\nFONTSIZE=16\n", "Uni2-Fixed16" },
		{ "FONTFACE=Fixed\n", "" },
		{ "FONT=lat9w-16.psfu.gz\nFONTFACE=Fixed\nFONTSIZE=8x16\n", "lat9w-16.psfu.gz" },
		{ "FONT='lat9w-08.psf.gz brl-8x8.psf'\n", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kbd_host k;

		memset(&k, 0, sizeof(k));
		assert_int_equal(kbdhost_parse_console_setup(cases[i].text, &k), 0);
		assert_string_equal(k.font, cases[i].font);
	}
}

/* A binary keymap with the tables listed, each key's value table*1000+key. */
static unsigned char *make_bkeymap(const unsigned int *tables, size_t n, size_t *len)
{
	unsigned char *m;
	size_t off = BKEYMAP_MAGIC_LEN + BKEYMAP_TABLES;

	*len = off + n * BKEYMAP_KEYS * 2;
	m = calloc(1, *len);
	assert_non_null(m);
	memcpy(m, BKEYMAP_MAGIC, BKEYMAP_MAGIC_LEN);
	for (size_t i = 0; i < n; i++)
		m[BKEYMAP_MAGIC_LEN + tables[i]] = 1;
	for (size_t i = 0; i < n; i++)
		for (unsigned int k = 0; k < BKEYMAP_KEYS; k++) {
			uint16_t v = (uint16_t)(tables[i] * 1000 + k);

			memcpy(m + off, &v, 2);
			off += 2;
		}
	return m;
}

struct seen {
	unsigned int count;
	unsigned int last_table;
	int stop_after;
};

static int note_key(unsigned int table, unsigned int key, uint16_t value, void *ctx)
{
	struct seen *s = ctx;

	assert_int_equal(value, table * 1000 + key);
	assert_true(key < BKEYMAP_KEYS);
	s->last_table = table;
	if (s->stop_after >= 0 && s->count == (unsigned int)s->stop_after)
		return -EPERM;
	s->count++;
	return 0;
}

static void bkeymap_reads_tables_in_order(void **state)
{
	const unsigned int tables[] = { 0, 1, 2, 8, 12 };
	size_t len;
	unsigned char *m = make_bkeymap(tables, 5, &len);
	struct seen s = { .stop_after = -1 };

	(void)state;
	assert_int_equal(bkeymap_check(m, len), 5);
	assert_int_equal(bkeymap_foreach(m, len, note_key, &s), 0);
	assert_int_equal(s.count, 5 * BKEYMAP_KEYS);
	assert_int_equal(s.last_table, 12);
	/* fn's error stops the walk and is returned. */
	s = (struct seen){ .stop_after = 3 };
	assert_int_equal(bkeymap_foreach(m, len, note_key, &s), -EPERM);
	assert_int_equal(s.count, 3);
	free(m);
}

static void bkeymap_rejects_malformed(void **state)
{
	const unsigned int tables[] = { 0, 255 };
	size_t len;
	unsigned char *m = make_bkeymap(tables, 2, &len);
	struct seen s = { .stop_after = -1 };

	(void)state;
	assert_int_equal(bkeymap_check(m, len), 2);
	/* One byte short, one byte over, too short for the header. */
	assert_int_equal(bkeymap_check(m, len - 1), -EINVAL);
	assert_int_equal(bkeymap_foreach(m, len - 1, note_key, &s), -EINVAL);
	assert_int_equal(s.count, 0);
	assert_int_equal(bkeymap_check(m, 10), -EINVAL);
	/* A flag that is neither 0 nor 1. */
	m[BKEYMAP_MAGIC_LEN + 3] = 2;
	assert_int_equal(bkeymap_check(m, len), -EINVAL);
	m[BKEYMAP_MAGIC_LEN + 3] = 0;
	/* Another magic. */
	m[0] = 'B';
	assert_int_equal(bkeymap_check(m, len), -EINVAL);
	m[0] = 'b';
	/* No table at all. */
	memset(m + BKEYMAP_MAGIC_LEN, 0, BKEYMAP_TABLES);
	assert_int_equal(bkeymap_check(m, BKEYMAP_MAGIC_LEN + BKEYMAP_TABLES), -EINVAL);
	free(m);
}

static void keymap_names(void **state)
{
	(void)state;
	assert_true(bkeymap_name_ok("de"));
	assert_true(bkeymap_name_ok("de-latin1-nodeadkeys"));
	assert_true(bkeymap_name_ok("us,de"));
	assert_true(bkeymap_name_ok("ctrl:nocaps"));
	assert_false(bkeymap_name_ok(""));
	assert_false(bkeymap_name_ok(".."));
	assert_false(bkeymap_name_ok("-b"));
	assert_false(bkeymap_name_ok("de/../x"));
	assert_false(bkeymap_name_ok("de latin1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vconsole_conf),
		cmocka_unit_test(vconsole_unsafe_values),
		cmocka_unit_test(default_keyboard),
		cmocka_unit_test(read_host_root),
		cmocka_unit_test(console_setup_fonts),
		cmocka_unit_test(bkeymap_reads_tables_in_order),
		cmocka_unit_test(bkeymap_rejects_malformed),
		cmocka_unit_test(keymap_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
