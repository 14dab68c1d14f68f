/* stack_params: rd.luks*, rd.lvm*, rd.md* into struct stack_params, and the image's crypttab. */
#include "blockstack/stack_params.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/mpath.h"
#include "common/crypttab.h"

void stack_params_init(struct stack_params *p)
{
	memset(p, 0, sizeof(*p));
	p->luks = p->lvm = p->md = p->crypttab = true;
	luks_opts_init(&p->all_opts);
}

static int copy_name(char *dst, const char *v)
{
	if (!v || !*v)
		return -EINVAL;
	if (strlen(v) >= STACK_NAME_MAX)
		return -ENAMETOOLONG;
	strcpy(dst, v);
	return 0;
}

/* rd.luks.uuid accepts "luks-UUID" as dracut does; the name stays empty. */
static const char *strip_luks_prefix(const char *v)
{
	return v && strncmp(v, "luks-", 5) == 0 ? v + 5 : v;
}

static int add_luks(struct stack_params *p, const char *uuid, const char *name)
{
	struct luks_name *e;
	int r;

	if (p->n_luks >= STACK_LIST_MAX)
		return -E2BIG;
	e = &p->luks_names[p->n_luks];
	r = copy_name(e->uuid, strip_luks_prefix(uuid));
	if (r == 0 && name)
		r = copy_name(e->name, name);
	/* A mapping name is a /dev/mapper entry: no '/' in it. */
	if (r == 0 && strchr(e->name, '/'))
		r = -EINVAL;
	if (r == 0)
		p->n_luks++;
	return r;
}

static int set_luks(struct stack_params *p, const char *v)
{
	p->luks = cmdline_bool(v);
	return 0;
}

static int set_luks_crypttab(struct stack_params *p, const char *v)
{
	p->crypttab = cmdline_bool(v);
	return 0;
}

static int set_lvm(struct stack_params *p, const char *v)
{
	p->lvm = cmdline_bool(v);
	return 0;
}

static int set_md(struct stack_params *p, const char *v)
{
	p->md = cmdline_bool(v);
	return 0;
}

static int set_luks_uuid(struct stack_params *p, const char *v)
{
	return add_luks(p, v, NULL);
}

/* rd.luks.name=UUID=NAME */
static int set_luks_name(struct stack_params *p, const char *v)
{
	char uuid[STACK_NAME_MAX];
	const char *eq = v ? strchr(v, '=') : NULL;

	if (!eq || eq == v || (size_t)(eq - v) >= sizeof(uuid))
		return -EINVAL;
	memcpy(uuid, v, (size_t)(eq - v));
	uuid[eq - v] = '\0';
	return add_luks(p, uuid, eq + 1);
}

/* rd.luks.key=KEYPATH[:KEYDEV[:LUKSDEV]], repeatable: tried in order. */
static int set_luks_key(struct stack_params *p, const char *v)
{
	int r;

	if (p->n_keys >= STACK_LIST_MAX)
		return -E2BIG;
	r = keyspec_parse(v, &p->luks_keys[p->n_keys]);
	if (r == 0)
		p->n_keys++;
	return r;
}

/* The UUID of "UUID=OPTS" into uuid: what comes before the first '=' is
 * hex digits and '-' alone, 32 digits ("luks-" before them is allowed).
 * Options never look like that, so "tries=3" is OPTS for every container. */
static bool uuid_of_options(const char *v, char *uuid, size_t size)
{
	size_t n = strcspn(v, "=");
	const char *u;
	char hex[33];

	if (!v[n] || n >= size)
		return false;
	memcpy(uuid, v, n);
	uuid[n] = '\0';
	u = strip_luks_prefix(uuid);
	return u[strspn(u, "0123456789abcdefABCDEF-")] == '\0' && crypttab_uuid_hex(u, hex);
}

/* A keyscript's argument is crypttab's key field: it belongs to a line. */
#define KEYSCRIPT_CRYPTTAB_ONLY "only a crypttab line names a keyscript, ignored"

/* rd.luks.options=OPTS or rd.luks.options=UUID=OPTS; a later one for the
 * same container wins (the lookup goes from the end). */
static int set_luks_options(struct stack_params *p, const char *v)
{
	char uuid[STACK_NAME_MAX];
	struct luks_entry *e;

	if (!v)
		return -EINVAL;
	if (!uuid_of_options(v, uuid, sizeof(uuid))) {
		luks_opts_init(&p->all_opts);
		luks_opts_parse(v, &p->all_opts);
		luks_opts_refuse_keyscript(&p->all_opts, KEYSCRIPT_CRYPTTAB_ONLY);
		p->has_all_opts = true;
		return 0;
	}
	if (p->n_uuid_opts >= STACK_LIST_MAX)
		return -E2BIG;
	e = &p->uuid_opts[p->n_uuid_opts++];
	memset(e, 0, sizeof(*e));
	strcpy(e->uuid, uuid);
	luks_opts_init(&e->opts);
	luks_opts_parse(v + strlen(uuid) + 1, &e->opts);
	luks_opts_refuse_keyscript(&e->opts, KEYSCRIPT_CRYPTTAB_ONLY);
	e->has_opts = true;
	return 0;
}

/* rd.luks.timeout=SEC (dracut's): the default of every container's prompt. */
static int set_luks_timeout(struct stack_params *p, const char *v)
{
	return v && !luks_opts_seconds(v, &p->luks_timeout_sec) ? 0 : -EINVAL;
}

static int add_to(char list[][STACK_NAME_MAX], size_t *n, const char *v)
{
	int r;

	if (*n >= STACK_LIST_MAX)
		return -E2BIG;
	r = copy_name(list[*n], v);
	if (r == 0)
		(*n)++;
	return r;
}

static int set_lvm_vg(struct stack_params *p, const char *v)
{
	return add_to(p->lvm_vgs, &p->n_vgs, v);
}

/* rd.lvm.lv=VG/LV: both parts present. */
static int set_lvm_lv(struct stack_params *p, const char *v)
{
	const char *slash = v ? strchr(v, '/') : NULL;

	if (!slash || slash == v || !slash[1] || strchr(slash + 1, '/'))
		return -EINVAL;
	return add_to(p->lvm_lvs, &p->n_lvs, v);
}

static int set_md_uuid(struct stack_params *p, const char *v)
{
	return add_to(p->md_uuids, &p->n_md, v);
}

/* dracut's rd.multipath=0 and =default; its older spellings turn it off:
 * nompath, rd_NO_MULTIPATH (any value) and multipath=off. */
static int set_multipath(struct stack_params *p, const char *v)
{
	if (v && strcmp(v, "default") == 0)
		p->multipath = MPATH_WORD_DEFAULT;
	else if (!cmdline_bool(v))
		p->multipath = MPATH_WORD_OFF;
	else
		p->multipath = MPATH_WORD_NONE;
	return 0;
}

static int set_nompath(struct stack_params *p, const char *v)
{
	(void)v;
	p->multipath = MPATH_WORD_OFF;
	return 0;
}

static int set_multipath_old(struct stack_params *p, const char *v)
{
	if (v && strcmp(v, "off") == 0)
		p->multipath = MPATH_WORD_OFF;
	return 0;
}

/* The setters above, as the command line's parser calls them. */
#define WORD(fn) \
	static int fn##_word(void *args, const struct cmdline_word *w, const char *value) \
	{ (void)w; return fn(args, value); }
WORD(set_luks)
WORD(set_luks_uuid)
WORD(set_luks_name)
WORD(set_luks_key)
WORD(set_luks_options)
WORD(set_luks_crypttab)
WORD(set_luks_timeout)
WORD(set_lvm)
WORD(set_lvm_vg)
WORD(set_lvm_lv)
WORD(set_md)
WORD(set_md_uuid)
WORD(set_multipath)
WORD(set_nompath)
WORD(set_multipath_old)
#undef WORD

static const struct cmdline_word words[] = {
	{ "rd.luks",          set_luks_word,          0 },
	{ "rd.luks.uuid",     set_luks_uuid_word,     0 },
	{ "rd.luks.name",     set_luks_name_word,     0 },
	{ "rd.luks.key",      set_luks_key_word,      0 },
	{ "rd.luks.options",  set_luks_options_word,  0 },
	{ "rd.luks.crypttab", set_luks_crypttab_word, 0 },
	{ "rd.luks.timeout",  set_luks_timeout_word,  0 },
	{ "rd.lvm",           set_lvm_word,           0 },
	{ "rd.lvm.vg",        set_lvm_vg_word,        0 },
	{ "rd.lvm.lv",        set_lvm_lv_word,        0 },
	{ "rd.md",            set_md_word,            0 },
	{ "rd.md.uuid",       set_md_uuid_word,       0 },
	{ "rd.multipath",     set_multipath_word,     0 },
	{ "nompath",          set_nompath_word,       0 },
	{ "rd_NO_MULTIPATH",  set_nompath_word,       0 },
	{ "multipath",        set_multipath_old_word, 0 },
};

struct cmdline_owner stack_params_cmdline(struct stack_params *p)
{
	return (struct cmdline_owner){ "blockstack", words, CMDLINE_N(words), p, NULL };
}

bool stack_uuid_equal(const char *a, const char *b)
{
	return crypttab_uuid_equal(strip_luks_prefix(a), strip_luks_prefix(b));
}

/* crypttab's NAME and options for its UUID. */
static int tab_add(struct stack_params *p, const char *uuid, const struct crypttab_entry *e)
{
	struct luks_entry *t = &p->tab[p->n_tab];
	int r;

	if (p->n_tab >= STACK_LIST_MAX)
		return -E2BIG;
	r = copy_name(t->uuid, uuid);
	if (r == 0)
		r = copy_name(t->name, e->name);
	if (r < 0)
		return r;
	luks_opts_init(&t->opts);
	luks_opts_parse(e->options, &t->opts);
	t->has_opts = e->options[0] != '\0';
	memcpy(t->source, e->source, sizeof(t->source));
	memcpy(t->key, e->keyfile, sizeof(t->key));
	memcpy(t->options, e->options, sizeof(t->options));
	p->n_tab++;
	return 0;
}

int stack_params_add_crypttab(struct stack_params *p, const struct crypttab_entry *e)
{
	char uuid[STACK_NAME_MAX];
	struct luks_key *k = &p->luks_keys[p->n_keys];
	int r;

	if (!p->crypttab || !crypttab_source_uuid(e->source, uuid, sizeof(uuid)))
		return 0;
	r = tab_add(p, uuid, e);
	if (r < 0 || !crypttab_has_keyfile(e) || p->tab[p->n_tab - 1].opts.keyscript[0])
		return r;
	if (p->n_keys >= STACK_LIST_MAX)
		return -E2BIG;
	memset(k, 0, sizeof(*k));
	if (strlen(e->keyfile) >= sizeof(k->path))
		return -ENAMETOOLONG;
	strcpy(k->path, e->keyfile);
	k->has_luksdev = true;
	k->luksdev.kind = DEVSPEC_UUID;
	snprintf(k->luksdev.value, sizeof(k->luksdev.value), "%s", uuid);
	p->n_keys++;
	return 0;
}

/* The last entry of list for uuid, or NULL. */
static const struct luks_entry *entry_find(const struct luks_entry *list, size_t n,
					   const char *uuid)
{
	while (n-- > 0)
		if (stack_uuid_equal(list[n].uuid, uuid))
			return &list[n];
	return NULL;
}

const struct luks_entry *stack_params_crypttab_line(const struct stack_params *p,
						    const char *uuid)
{
	return entry_find(p->tab, p->n_tab, uuid);
}

/* crypttab's name for the container, into name. */
static void crypttab_name(const struct stack_params *p, const char *uuid, char *name, size_t size)
{
	const struct luks_entry *t = entry_find(p->tab, p->n_tab, uuid);

	if (t)
		snprintf(name, size, "%s", t->name);
}

const struct luks_opts *stack_params_luks_opts(const struct stack_params *p, const char *uuid)
{
	static const struct luks_opts none = { .tries = LUKS_OPTS_TRIES_DEFAULT };
	const struct luks_entry *e = entry_find(p->uuid_opts, p->n_uuid_opts, uuid);

	if (!e)
		e = entry_find(p->tab, p->n_tab, uuid);
	if (e && e->has_opts)
		return &e->opts;
	return p->has_all_opts ? &p->all_opts : &none;
}

unsigned int stack_params_luks_timeout(const struct stack_params *p, const char *uuid)
{
	unsigned int sec = stack_params_luks_opts(p, uuid)->timeout_sec;

	return sec ? sec : p->luks_timeout_sec;
}

bool stack_params_luks_wanted(const struct stack_params *p, const char *uuid,
			      char *name, size_t size)
{
	if (!p->luks || !uuid || !*uuid)
		return false;
	snprintf(name, size, "luks-%s", uuid);
	crypttab_name(p, uuid, name, size);
	if (p->n_luks == 0)
		return !(stack_params_luks_opts(p, uuid)->flags & LUKS_OPT_NOAUTO);
	for (size_t i = 0; i < p->n_luks; i++) {
		if (!stack_uuid_equal(p->luks_names[i].uuid, uuid))
			continue;
		if (p->luks_names[i].name[0])
			snprintf(name, size, "%s", p->luks_names[i].name);
		return true;
	}
	return false;
}

bool stack_params_md_wanted(const struct stack_params *p, const char *uuid)
{
	if (!p->md)
		return false;
	if (p->n_md == 0)
		return true;
	for (size_t i = 0; uuid && i < p->n_md; i++)
		if (stack_uuid_equal(p->md_uuids[i], uuid))
			return true;
	return false;
}
