/* cmdline: the kernel command line's one parsing pass. Each component
 * declares its own words (dracut's names) and the struct they fill, beside
 * its code (e.g. net/net_args.c, blockstack/stack_params.c); init/bootargs.c
 * hands them all to cmdline_parse(), which gives every word to the one
 * component that declares it. */
#ifndef LIFEBOAT_CMDLINE_H
#define LIFEBOAT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/strv.h"

#define CMDLINE_MAX 4096
#define CMDLINE_VALUE_MAX 256

/* The longest wait a *timeout= word may ask for, in seconds: a day. */
#define CMDLINE_TIMEOUT_MAX (24 * 3600)

struct cmdline_word;

/* Store value (NULL: the word had no '=') into args, the owner's struct.
 * Returns 0, or -errno for a value that is refused (the default stays). */
typedef int (*cmdline_set_fn)(void *args, const struct cmdline_word *w, const char *value);

struct cmdline_word {
	const char *name;
	cmdline_set_fn set;
	size_t offset;              /* of the field in the owner's struct, for the generic setters */
};

/* One component's words and the struct they fill. */
struct cmdline_owner {
	const char *component;
	const struct cmdline_word *words;
	size_t n_words;
	void *args;
	/* Words that no owner declares by name (MODULE.PARAM=VALUE); may be NULL. */
	int (*other)(void *args, const char *word);
};

#define CMDLINE_N(table) (sizeof(table) / sizeof((table)[0]))

/* Split a command line into words the way the kernel does: spaces separate
 * words, double quotes group (and are removed), so `a="b c"` is one word
 * a=b c. Appends to out. */
int cmdline_split(const char *line, struct strv *out);
/* Apply one command line (kernel or embedded, named source in messages;
 * NULL: none is logged) to the owners' structs; later calls override earlier ones, as the last
 * occurrence of a word wins. A refused value does not stop the other
 * words: each is logged by name (never its value: it may be a secret) and
 * the first error is returned. */
int cmdline_parse(const char *line, const char *source, const struct cmdline_owner *owners,
		  size_t n_owners);
/* A word that two owners declare, or NULL: each word has one owner. */
const char *cmdline_owners_conflict(const struct cmdline_owner *owners, size_t n_owners);

/* dracut's booleans: no value, or anything but 0/no/false/off, is on. */
bool cmdline_bool(const char *value);

/* The generic setters, for a field at w->offset of the owner's struct. */
int cmdline_set_string(void *args, const struct cmdline_word *w, const char *value); /* char[CMDLINE_VALUE_MAX] */
int cmdline_set_flag(void *args, const struct cmdline_word *w, const char *value);   /* bool */
int cmdline_set_seconds(void *args, const struct cmdline_word *w, const char *value); /* unsigned int, <= CMDLINE_TIMEOUT_MAX */
int cmdline_set_port(void *args, const struct cmdline_word *w, const char *value);   /* unsigned int, 1..65535 */
/* Comma lists that accumulate over repeated words (struct strv). */
int cmdline_set_list(void *args, const struct cmdline_word *w, const char *value);
/* The whole word "name=value", once (struct strv): for words a component
 * parses later, as written (net/link/netdev_spec.c's vlan=, bond=, ...). */
int cmdline_set_word_once(void *args, const struct cmdline_word *w, const char *value);

#endif
