/* modparams: a module's parameters given on the command line
 * (MODULE.PARAM=VALUE), which the kernel applies by itself only to
 * built-in code: for a module loaded later, whoever loads it passes them,
 * as modprobe does. The init's one parse of the command line (the image's
 * /etc/cmdline.d, then /proc/cmdline: bootlib/cmdline.c) keeps the words
 * modparams_is_word accepts, and the module loader (bootlib/modload.c)
 * takes each module's from them with modparams_for. */
#ifndef LIFEBOAT_MODPARAMS_H
#define LIFEBOAT_MODPARAMS_H

#include <stdbool.h>

#include "common/strv.h"

/* Whether word (as the parser reads it: quotes removed) sets a module's
 * parameter, MODULE.PARAM or MODULE.PARAM=VALUE. rd.* words are the
 * initramfs's own, and a word holding a secret (common/redact.h) is kept
 * nowhere: neither is one. */
bool modparams_is_word(const char *word);

/* The words of words that set a parameter of module (names compared with
 * '-' and '_' alike), in their order, as init_module(2) options:
 * "PARAM=VALUE PARAM2", a value with a blank in double quotes. *out is
 * malloc'd ("" when there are none). Returns 0 or -ENOMEM. */
int modparams_for(const struct strv *words, const char *module, char **out);

#endif
