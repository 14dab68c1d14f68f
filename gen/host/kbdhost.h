/* kbdhost: the build host's console keyboard layout and font, read from
 * systemd's /etc/vconsole.conf (KEYMAP=, FONT=) or, when that names no
 * keymap, Debian's /etc/default/keyboard (XKBLAYOUT=, XKBVARIANT=,
 * XKBMODEL=, XKBOPTIONS=), which gen/feature/keymap_pack.c compiles. */
#ifndef LIFEBOAT_KBDHOST_H
#define LIFEBOAT_KBDHOST_H

#define KBDHOST_VALUE_MAX 128

struct kbd_host {
	char keymap[KBDHOST_VALUE_MAX];       /* a console keymap name (KEYMAP=) */
	char font[KBDHOST_VALUE_MAX];         /* a console font name (FONT=) */
	char xkb_layout[KBDHOST_VALUE_MAX];   /* an XKB layout list ("de", "us,de") */
	char xkb_variant[KBDHOST_VALUE_MAX];
	char xkb_model[KBDHOST_VALUE_MAX];
	char xkb_options[KBDHOST_VALUE_MAX];
	char from[64];                        /* the file the layout came from, for the report */
};

/* Parse the text of a vconsole.conf into out's keymap and font. Shell
 * assignments: KEY=value, KEY="value", KEY='value', comments and other
 * keys ignored; a value that is not a usable name (bkeymap_name_ok) is
 * dropped. Returns 0. */
int kbdhost_parse_vconsole(const char *text, struct kbd_host *out);
/* The same for Debian's /etc/default/keyboard: the XKB fields. */
int kbdhost_parse_keyboard(const char *text, struct kbd_host *out);
/* Read ROOT/etc/vconsole.conf, then (no KEYMAP= there)
 * ROOT/etc/default/keyboard; root "" is the build host. Returns 0 when a
 * layout or a font was found, -ENOENT when neither file names one. */
int kbdhost_read(const char *root, struct kbd_host *out);

#endif
