/* uki_sign: signing a unified kernel image for Secure Boot with sbsign
 * (sbsigntool), and telling a key that needs its passphrase. */
#ifndef LIFEBOAT_UKI_SIGN_H
#define LIFEBOAT_UKI_SIGN_H

#include <stdbool.h>

/* Whether the PEM private key at path is encrypted (PKCS#8's "ENCRYPTED
 * PRIVATE KEY" or the older "Proc-Type: 4,ENCRYPTED" header): sbsign then
 * asks for its passphrase on the terminal. false when it cannot be read
 * (sbsign reports that). */
bool uki_sign_key_encrypted(const char *path);

/* Before anything is built: refuse (reported, -EINVAL) a key that needs a
 * passphrase when there is no terminal to type it on. */
int uki_sign_check(const char *key);

/* sbsign --key key --cert cert --output out in; reported on failure.
 * Returns 0, or -EIO / -errno. */
int uki_sign(const char *key, const char *cert, const char *in, const char *out);

#endif
