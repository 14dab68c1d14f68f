/* kmods_int: the chosen-module set shared by kmods.c (choosing) and
 * kmods_emit.c (writing into the image); not for other users. */
#ifndef LIFEBOAT_KMODS_INT_H
#define LIFEBOAT_KMODS_INT_H

#include <libkmod.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/strv.h"
#include "gen/kmod/kmods.h"

struct kmods_entry {
	char *name;               /* normalised: '_' not '-' */
	struct kmod_module *mod;  /* our reference, for modinfo (firmware) */
	const char *path;         /* host file, owned by mod */
	struct strv deps;         /* chosen modules it needs first */
	struct strv pre, post;    /* chosen softdeps */
	char *options;            /* from modprobe.d; "" for none */
	bool blacklisted;
};

struct kmods {
	struct kmod_ctx *ctx;
	char *moddir;
	char *kver;
	struct strv omit;         /* --omit-modules, normalised */
	struct strv blacklist;    /* modprobe.d blacklist, normalised */
	struct kmods_entry *mods;
	size_t n_mods;
	size_t cap_mods;
	bool sorted;              /* mods sorted by name: kmods_find may bisect */
	bool generic;             /* the generic set was added: not this machine's devices */
};

/* The chosen entry named name, or NULL. */
struct kmods_entry *kmods_find(const struct kmods *k, const char *name);
/* Sort the chosen entries by name (reproducible output, faster lookups). */
void kmods_sort(struct kmods *k);
bool kmods_omitted(const struct kmods *k, const char *name);
/* Open one of depmod's text indexes (modules.dep, modules.alias) in the
 * modules directory; reports and returns NULL with errno set on failure. */
FILE *kmods_index_open(const struct kmods *k, const char *name);

#endif
