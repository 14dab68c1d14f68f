/* authkeys: check the lines of an authorized_keys file for the image's
 * SSH server (dropbear), before they go into the image.
 *
 * The format is OpenSSH's (sshd(8), AUTHORIZED_KEYS FILE FORMAT):
 * [options] keytype base64-key [comment]. dropbear refuses a key whose
 * options it does not know (from=, environment=, ...): such a key could
 * never log in, so it is reported here instead of at the locked door. */
#ifndef LIFEBOAT_GEN_HOST_AUTHKEYS_H
#define LIFEBOAT_GEN_HOST_AUTHKEYS_H

#include <stddef.h>

enum authkey_verdict {
	AUTHKEY_USABLE,
	AUTHKEY_EMPTY,           /* blank or a # comment */
	AUTHKEY_BAD_OPTIONS,     /* unbalanced quotes, an empty option */
	AUTHKEY_UNKNOWN_OPTION,  /* an option dropbear does not honour: it refuses the key */
	AUTHKEY_BAD_TYPE,        /* no key type dropbear knows */
	AUTHKEY_BAD_KEY,         /* the base64 is malformed or names another type */
};

struct authkey_check {
	enum authkey_verdict verdict;
	char type[48];       /* the key type, when one was found */
	char option[48];     /* the unknown option's name */
};

/* Check one line (without its newline; len bytes, no NUL needed). */
void authkeys_check_line(const char *line, size_t len, struct authkey_check *out);
/* What a verdict means, for messages. */
const char *authkeys_verdict_text(enum authkey_verdict v);

#endif
