/* p11kit_conf: a p11-kit module file (/usr/share/p11-kit/modules/NAME.module,
 * /etc/pkcs11/modules/NAME.module; pkcs11.conf(5)) read for the PKCS#11
 * unlock's packer (gen/feature/systoken_pack.c): which module it names
 * and whether cryptsetup's systemd-pkcs11 plugin would load it.
 *
 * The text is the build host's configuration; it is still read with
 * every length checked (a line longer than the buffer is cut, a module
 * path longer than P11KIT_CONF_PATH_MAX makes the file unusable). */
#ifndef LIFEBOAT_GEN_P11KIT_CONF_H
#define LIFEBOAT_GEN_P11KIT_CONF_H

#include <stdbool.h>
#include <stddef.h>

#define P11KIT_CONF_PATH_MAX 256
/* p11-kit knows its host program by this name (program_invocation_short_name). */
#define P11KIT_CONF_PROGRAM "cryptsetup"

struct p11kit_module {
	char module[P11KIT_CONF_PATH_MAX]; /* "module:": a path, or a name in p11-kit's module dir */
	bool trust_policy;       /* "trust-policy: yes": a store of trust anchors, no keys */
	bool enabled;            /* enable-in/disable-in let P11KIT_CONF_PROGRAM load it */
};

/* Parse text (len bytes, need not be terminated) into m. Returns 0, or
 * -ENOENT when it names no module, -ENAMETOOLONG when its module path
 * does not fit. */
int p11kit_conf_parse(const char *text, size_t len, struct p11kit_module *m);
/* Whether the packer takes it: a module that cryptsetup loads and that
 * can hold a key. */
bool p11kit_conf_wanted(const struct p11kit_module *m);

#endif
