/* stack_params: the block-stack parameters of the kernel command line (dracut's names). */
#ifndef LIFEBOAT_BLOCKSTACK_STACK_PARAMS_H
#define LIFEBOAT_BLOCKSTACK_STACK_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/keyspec.h"
#include "bootlib/cmdline.h"
#include "common/crypttab.h"
#include "common/luksopts.h"

#define STACK_LIST_MAX 8
#define STACK_NAME_MAX 128

struct luks_name {
	char uuid[STACK_NAME_MAX];
	char name[STACK_NAME_MAX];
};

/* A line of the image's crypttab, or an rd.luks.options=UUID=OPTS (no name). */
struct luks_entry {
	char uuid[STACK_NAME_MAX];
	char name[STACK_NAME_MAX];
	bool has_opts;               /* crypttab's fourth field was given */
	struct luks_opts opts;
	/* crypttab's key field and options as written: a keyscript's
	 * argument and environment (blockstack/keyscript_env.h). */
	char source[CRYPTTAB_FIELD_MAX];
	char key[CRYPTTAB_FIELD_MAX];
	char options[CRYPTTAB_FIELD_MAX];
};

struct stack_params {
	bool luks, lvm, md;                         /* rd.luks=0, rd.lvm=0, rd.md=0 turn off */
	int multipath;                              /* rd.multipath= (enum mpath_word, blockstack/mpath.h) */
	struct luks_name luks_names[STACK_LIST_MAX]; /* rd.luks.uuid= (name empty), rd.luks.name= */
	size_t n_luks;
	char lvm_vgs[STACK_LIST_MAX][STACK_NAME_MAX]; /* rd.lvm.vg= */
	size_t n_vgs;
	char lvm_lvs[STACK_LIST_MAX][STACK_NAME_MAX]; /* rd.lvm.lv=VG/LV */
	size_t n_lvs;
	char md_uuids[STACK_LIST_MAX][STACK_NAME_MAX]; /* rd.md.uuid= */
	size_t n_md;
	struct luks_key luks_keys[STACK_LIST_MAX];  /* rd.luks.key=, then crypttab's key files */
	size_t n_keys;
	bool crypttab;                              /* rd.luks.crypttab=0 turns off */
	struct luks_entry tab[STACK_LIST_MAX];      /* the image's /etc/crypttab, by UUID */
	size_t n_tab;
	struct luks_entry uuid_opts[STACK_LIST_MAX]; /* rd.luks.options=UUID=OPTS */
	size_t n_uuid_opts;
	bool has_all_opts;
	struct luks_opts all_opts;                  /* rd.luks.options=OPTS */
	unsigned int luks_timeout_sec;              /* rd.luks.timeout=: 0, prompts wait */
	/* rd.timeout= (the root's word, init/bootargs.c copies it): how long a
	 * crypttab keyscript's tries may take; 0: no bound. */
	unsigned int keyscript_timeout_sec;
};

/* Everything on, no list: assemble whatever appears. */
void stack_params_init(struct stack_params *p);
/* rd.luks*, rd.lvm*, rd.md*, filling p (stack_params_init first). A
 * refused value: -EINVAL when malformed, -E2BIG when a list is full,
 * -ENAMETOOLONG. */
struct cmdline_owner stack_params_cmdline(struct stack_params *p);
/* Take a line of the image's /etc/crypttab: a source named by UUID gives
 * the container's name (when rd.luks.name= does not), its options, and a
 * key file field a key for that container, tried after rd.luks.key='s
 * (unless its options name a keyscript, whose argument the field is).
 * Other sources are skipped, and every line with rd.luks.crypttab=0.
 * Returns 0, -E2BIG when a list is full, -ENAMETOOLONG. */
int stack_params_add_crypttab(struct stack_params *p, const struct crypttab_entry *e);
/* Whether a LUKS container with this UUID is to be opened (not when
 * rd.luks.uuid=/rd.luks.name= list others, nor when its options say
 * noauto and they do not list it), and as what (into name: rd.luks.name's
 * NAME, else crypttab's NAME, else "luks-UUID"). */
bool stack_params_luks_wanted(const struct stack_params *p, const char *uuid,
			      char *name, size_t size);
/* The options of the container with this UUID: rd.luks.options=UUID=OPTS,
 * else its crypttab line's fourth field, else rd.luks.options=OPTS, else
 * none. The first given is used whole; lists are not merged. */
const struct luks_opts *stack_params_luks_opts(const struct stack_params *p, const char *uuid);
/* The crypttab line of the container with this UUID, or NULL. */
const struct luks_entry *stack_params_crypttab_line(const struct stack_params *p,
						    const char *uuid);
/* How long a prompt for that container waits, in seconds (0: until
 * answered): its options' timeout=, else rd.luks.timeout=. */
unsigned int stack_params_luks_timeout(const struct stack_params *p, const char *uuid);
/* Whether an md array with this UUID (any of mdadm's or blkid's spellings) is wanted. */
bool stack_params_md_wanted(const struct stack_params *p, const char *uuid);
/* Two UUIDs are the same when their hex digits are, in any case and with
 * any separators ("luks-" prefix, '-' or ':' groups). */
bool stack_uuid_equal(const char *a, const char *b);

#endif
