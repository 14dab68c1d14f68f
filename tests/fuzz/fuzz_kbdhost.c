/* Fuzz target: the keyboard settings the generator reads on the host
 * (vconsole.conf, /etc/default/keyboard, /etc/default/console-setup:
 * gen/host/kbdhost.c) and the binary
 * keymap the generator checks and the init loads (common/bkeymap.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bkeymap.h"
#include "gen/host/kbdhost.h"

/* Every parsed value must be a usable name or empty. */
static void check_name(const char *value)
{
	if (value[0] && !bkeymap_name_ok(value))
		abort();
}

static void settings(const char *text)
{
	struct kbd_host k;

	memset(&k, 0, sizeof(k));
	kbdhost_parse_vconsole(text, &k);
	kbdhost_parse_keyboard(text, &k);
	kbdhost_parse_console_setup(text, &k);
	check_name(k.keymap);
	check_name(k.font);
	check_name(k.xkb_layout);
	check_name(k.xkb_variant);
	check_name(k.xkb_model);
	check_name(k.xkb_options);
	check_name(k.cs_codeset);
	check_name(k.cs_face);
	check_name(k.cs_size);
}

static int count_key(unsigned int table, unsigned int key, uint16_t value, void *ctx)
{
	(void)value;
	if (table >= BKEYMAP_TABLES || key >= BKEYMAP_KEYS)
		abort();
	++*(size_t *)ctx;
	return 0;
}

static void keymap(const uint8_t *data, size_t size)
{
	size_t keys = 0;
	int tables = bkeymap_check(data, size);
	int r = bkeymap_foreach(data, size, count_key, &keys);

	/* The walk visits exactly the keys the check counted. */
	if (tables > 0 ? r != 0 || keys != (size_t)tables * BKEYMAP_KEYS : r == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	settings(text);
	free(text);
	keymap(data, size);
	return 0;
}
