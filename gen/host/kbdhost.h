/* kbdhost: the build host's console keyboard layout and font, read from
 * systemd's /etc/vconsole.conf (KEYMAP=, FONT=) or, when that names no
 * keymap, Debian's /etc/default/keyboard (XKBLAYOUT=, XKBVARIANT=,
 * XKBMODEL=, XKBOPTIONS=), which gen/feature/keymap_pack.c compiles. */
#ifndef LIFEBOAT_KBDHOST_H
#define LIFEBOAT_KBDHOST_H

#include <stddef.h>

#define KBDHOST_VALUE_MAX 128

struct kbd_host {
	char keymap[KBDHOST_VALUE_MAX];       /* a console keymap name (KEYMAP=) */
	char font[KBDHOST_VALUE_MAX];         /* a console font name (FONT=) */
	char xkb_layout[KBDHOST_VALUE_MAX];   /* an XKB layout list ("de", "us,de") */
	char xkb_variant[KBDHOST_VALUE_MAX];
	char xkb_model[KBDHOST_VALUE_MAX];
	char xkb_options[KBDHOST_VALUE_MAX];
	char from[64];                        /* the file the layout came from, for the report */
	char font_from[64];                   /* the file the font came from */
	/* Debian's /etc/default/console-setup, for the font when
	 * vconsole.conf names none: FONT=, or CODESET, FONTFACE, FONTSIZE. */
	char cs_font[KBDHOST_VALUE_MAX];
	char cs_codeset[KBDHOST_VALUE_MAX];
	char cs_face[KBDHOST_VALUE_MAX];
	char cs_size[KBDHOST_VALUE_MAX];
};

/* Parse the text of a vconsole.conf into out's keymap and font. Shell
 * assignments: KEY=value, KEY="value", KEY='value', comments and other
 * keys ignored; a value that is not a usable name (bkeymap_name_ok) is
 * dropped. Returns 0. */
int kbdhost_parse_vconsole(const char *text, struct kbd_host *out);
/* The same for Debian's /etc/default/keyboard: the XKB fields. */
int kbdhost_parse_keyboard(const char *text, struct kbd_host *out);
/* The same for Debian's /etc/default/console-setup: FONT=, CODESET=,
 * FONTFACE=, FONTSIZE=; then the font's name into out->font as setupcon
 * makes it (kbdhost_console_setup_font), unless out->font is set or the
 * fields name Debian's default, Fixed 8x16 (its prompts look as with the
 * kernel's own 8x16 font: an image needs no copy). */
int kbdhost_parse_console_setup(const char *text, struct kbd_host *out);
/* setupcon's font name from console-setup's fields: FONT='s first word,
 * else CODESET-FACE SIZE ("Uni2-Fixed16" for guess, Fixed, 8x16; a size
 * WxH other than 8 wide is named HxW: "Uni2-Terminus32x16"). CODESET
 * "guess" (it depends on the locale) is taken as Uni2, which covers the
 * Latin, Greek and Cyrillic letters. Empty when the fields name no font. */
void kbdhost_console_setup_font(const struct kbd_host *k, char *out, size_t size);
/* Read ROOT/etc/vconsole.conf, then (no KEYMAP= there)
 * ROOT/etc/default/keyboard, and (no FONT= in vconsole.conf)
 * ROOT/etc/default/console-setup; root "" is the build host. Returns 0 when a
 * layout or a font was found, -ENOENT when neither file names one. */
int kbdhost_read(const char *root, struct kbd_host *out);

#endif
