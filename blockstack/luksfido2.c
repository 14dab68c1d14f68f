/* luksfido2: the systemd-fido2 kind of LUKS2 token (blockstack/lukstoken.c
 * runs it): the token, the key's hidraw device, and the reasons libfido2
 * and systemd give for a refusal. */
#include "blockstack/luksfido2.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bootlib/clock.h"
#include "bootlib/modload.h"
#include "common/featuremods.h"
#include "common/fileread.h"
#include "common/layout.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define TOKEN_TYPE "systemd-fido2"
#define FIDO_USAGE_PAGE 0xf1d0
/* HID short items: a global item of tag 0 is Usage Page; 0xfe starts a long item. */
#define HID_ITEM_USAGE_PAGE 0x04
#define HID_LONG_ITEM 0xfe
#define DESCRIPTOR_MAX 4096
#define POLL_MS 100
#define NO_SUPPORT "this image has no FIDO2 support (cryptsetup's systemd-fido2 token plugin, " \
		   "libfido2 and the USB HID drivers): rebuild it with lifeboat build " \
		   "--block-stacks --fido2"

const struct luks2_token *luksfido2_pick(const struct luks2_tokens *t,
					 const struct luks_opts *o, const char **why)
{
	(void)o;
	*why = "it has no " TOKEN_TYPE " token";
	return luks2token_find(t, TOKEN_TYPE);
}

bool luksfido2_needs_pin(const struct luks2_token *tok, const struct luks_opts *o)
{
	(void)o;
	return tok->fido2_pin;
}

bool luksfido2_descriptor_is_fido(const unsigned char *desc, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char prefix = desc[i];
		size_t size = (prefix & 3) == 3 ? 4 : prefix & 3;
		unsigned long value = 0;

		if (prefix == HID_LONG_ITEM) {
			if (len - i < 2)
				return false;
			i += 3 + (size_t)desc[i + 1];
			continue;
		}
		if (len - i - 1 < size)
			return false;
		for (size_t b = 0; b < size; b++)
			value |= (unsigned long)desc[i + 1 + b] << (8 * b);
		if ((prefix & 0xfc) == HID_ITEM_USAGE_PAGE && value == FIDO_USAGE_PAGE)
			return true;
		i += 1 + size;
	}
	return false;
}

static bool is_fido_hidraw(const char *sys_hidraw, const char *name)
{
	char path[512];
	char *desc = NULL;
	size_t len = 0;
	bool fido;

	snprintf(path, sizeof(path), "%s/%s/device/report_descriptor", sys_hidraw, name);
	if (file_read_all(path, DESCRIPTOR_MAX, &desc, &len) < 0)
		return false;
	fido = luksfido2_descriptor_is_fido((const unsigned char *)desc, len);
	free(desc);
	return fido;
}

int luksfido2_find_key(const char *sys_hidraw, char *path, size_t size)
{
	DIR *d = opendir(sys_hidraw);
	const struct dirent *e;
	int r = -ENOENT;

	if (!d)
		return -ENOENT;
	while (r < 0 && (e = readdir(d)))
		if (strncmp(e->d_name, "hidraw", 6) == 0 && is_fido_hidraw(sys_hidraw, e->d_name)) {
			snprintf(path, size, "/dev/%s", e->d_name);
			r = 0;
		}
	closedir(d);
	return r;
}

/* Phrases of systemd's FIDO2 code and libfido2's error names, as
 * cryptsetup passes them on, in the order they are looked for. */
static const struct {
	const char *phrase;
	enum fido2_why why;
} phrases[] = {
	{ "PIN_AUTH_BLOCKED",                 FIDO2_WHY_BLOCKED },
	{ "PIN_BLOCKED",                      FIDO2_WHY_BLOCKED },
	{ "PIN_INVALID",                      FIDO2_WHY_PIN },
	{ "PIN of security token incorrect",  FIDO2_WHY_PIN },
	{ "No FIDO2 devices found",           FIDO2_WHY_NO_KEY },
	{ "No FIDO devices found",            FIDO2_WHY_NO_KEY },
	{ "NO_CREDENTIALS",                   FIDO2_WHY_OTHER_KEY },
	{ "needed credentials not present",   FIDO2_WHY_OTHER_KEY },
	{ "ACTION_TIMEOUT",                   FIDO2_WHY_TIMEOUT },
	{ "FIDO2 token support is not installed", FIDO2_WHY_NO_SUPPORT },
};

enum fido2_why luksfido2_why(int r, const char *out)
{
	if (r == -ETIMEDOUT)
		return FIDO2_WHY_TIMEOUT;
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (strstr(out, phrases[i].phrase))
			return phrases[i].why;
	return FIDO2_WHY_OTHER;
}

const char *luksfido2_why_text(enum fido2_why why)
{
	switch (why) {
	case FIDO2_WHY_NO_KEY:
		return "no FIDO2 security key is plugged in (plug in the key it was enrolled "
		       "with and reboot, or type the passphrase)";
	case FIDO2_WHY_PIN:
		return "the security key refused the PIN";
	case FIDO2_WHY_BLOCKED:
		return "the security key is locked after wrong PINs (unplug it and plug it in "
		       "again; a key that says PIN_BLOCKED needs a reset, which loses its "
		       "credentials)";
	case FIDO2_WHY_OTHER_KEY:
		return "the security key plugged in is not the one it was enrolled with";
	case FIDO2_WHY_TIMEOUT:
		return "nobody touched the security key within " XSTR(LUKSFIDO2_TIMEOUT_S) " s";
	case FIDO2_WHY_NO_ANSWER:
		return LUKSTOKEN_NO_ANSWER;
	case FIDO2_WHY_NO_SUPPORT:
		return NO_SUPPORT;
	case FIDO2_WHY_OTHER:
		break;
	}
	return "cryptsetup could not use the token (rd.debug logs what it said)";
}

/* The key's drivers by name (coldplug may have loaded them already),
 * then its hidraw device, waited for a little: USB enumerates late. */
static const char *fido2_device_missing(const struct luks_container *c,
					const struct luks2_token *tok)
{
	static const char *const modules[] = { FEATUREMODS_FIDO2, NULL };
	uint64_t until = clock_now_ms() + LUKSFIDO2_WAIT_MS;
	const struct timespec pause = { 0, POLL_MS * 1000000L };
	char path[64];

	(void)c;
	(void)tok;
	for (const char *const *m = modules; *m; m++)
		modload_name(*m);
	while (luksfido2_find_key(LUKSFIDO2_SYS_HIDRAW, path, sizeof(path)) < 0) {
		if (clock_now_ms() >= until)
			return luksfido2_why_text(FIDO2_WHY_NO_KEY);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static const char *fido2_refusal(int r, const char *out, bool *pin_wrong)
{
	enum fido2_why why = luksfido2_why(r, out);

	*pin_wrong = why == FIDO2_WHY_PIN;
	return luksfido2_why_text(why);
}

static bool fido2_needs_touch(const struct luks2_token *tok)
{
	return tok->fido2_up;
}

const struct lukstoken_kind luksfido2_kind = {
	.type = TOKEN_TYPE,
	.name = "FIDO2",
	.mark = LAYOUT_FIDO2_MARK,
	.no_support = NO_SUPPORT,
	.no_answer = LUKSTOKEN_NO_ANSWER,
	.timeout_ms = LUKSFIDO2_TIMEOUT_MS,
	.pin_intro = "is bound to a FIDO2 security key with a PIN",
	.pin_label = "FIDO2 PIN",
	.pin_wrong = "the security key refused the PIN",
	.pick = luksfido2_pick,
	.needs_pin = luksfido2_needs_pin,
	.device_missing = fido2_device_missing,
	.refusal = fido2_refusal,
	.env = NULL,
	.describe = NULL,
	.needs_touch = fido2_needs_touch,
};
