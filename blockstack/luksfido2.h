/* luksfido2: the systemd-fido2 token (enrolled by systemd-cryptenroll
 * --fido2-device): which one to try, whether a security key is plugged
 * in, and how its refusals read; blockstack/lukstoken.c runs it through
 * cryptsetup's systemd-fido2 plugin, which asks the key with libfido2. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSFIDO2_H
#define LIFEBOAT_BLOCKSTACK_LUKSFIDO2_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/luks.h"
#include "blockstack/lukstoken.h"
#include "common/luks2token.h"

/* Each attempt is bounded: a key waits for its touch (30 s is what keys
 * themselves wait before they give up the request). */
#define LUKSFIDO2_TIMEOUT_S 30
#define LUKSFIDO2_TIMEOUT_MS (LUKSFIDO2_TIMEOUT_S * 1000)
/* How long a key's hidraw device is waited for once its drivers are
 * loaded (a key plugged in at power-on enumerates in well under this). */
#define LUKSFIDO2_WAIT_MS 3000
#define LUKSFIDO2_SYS_HIDRAW "/sys/class/hidraw"

/* Why a FIDO2 attempt failed. */
enum fido2_why {
	FIDO2_WHY_OTHER,      /* cryptsetup failed otherwise */
	FIDO2_WHY_NO_KEY,     /* no FIDO2 security key is plugged in */
	FIDO2_WHY_PIN,        /* the key refused the PIN */
	FIDO2_WHY_BLOCKED,    /* the key is locked after wrong PINs */
	FIDO2_WHY_OTHER_KEY,  /* a key that is not the enrolled one */
	FIDO2_WHY_TIMEOUT,    /* nobody touched it within LUKSFIDO2_TIMEOUT_S */
	FIDO2_WHY_NO_ANSWER,  /* nobody typed the PIN within luks_prompt_sec */
	FIDO2_WHY_NO_SUPPORT, /* the image carries no FIDO2 unlock (built without --fido2) */
};

/* The first systemd-fido2 token of t, or NULL with *why saying why none. */
const struct luks2_token *luksfido2_pick(const struct luks2_tokens *t,
					 const struct luks_opts *o, const char **why);
/* Whether the token asks for the key's PIN ("fido2-clientPin-required"). */
bool luksfido2_needs_pin(const struct luks2_token *tok, const struct luks_opts *o);
/* Whether a HID report descriptor (len bytes, from sysfs: the device's
 * own words) declares the FIDO usage page 0xF1D0, as a CTAPHID key's does. */
bool luksfido2_descriptor_is_fido(const unsigned char *desc, size_t len);
/* The first hidraw device under sys_hidraw (/sys/class/hidraw) whose
 * descriptor is a FIDO key's: "/dev/hidrawN" into path. 0 or -ENOENT. */
int luksfido2_find_key(const char *sys_hidraw, char *path, size_t size);
/* Classify cryptsetup's exit status r and its words out (never shown). */
enum fido2_why luksfido2_why(int r, const char *out);
/* One line for the user: what the key said and what to do. */
const char *luksfido2_why_text(enum fido2_why why);

/* The systemd-fido2 kind of blockstack/lukstoken.c. */
extern const struct lukstoken_kind luksfido2_kind;

#endif
