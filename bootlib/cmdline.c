/* cmdline: one pass over the command line, each word to its component. */
#include "bootlib/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/log.h"
#include "common/cmdwords.h"

int cmdline_split(const char *line, struct strv *out)
{
	struct cmdword w;
	int r = 0;

	while (r == 0 && cmdwords_next(&line, &w))
		r = strv_push(out, w.text) < 0 ? -ENOMEM : 0;
	/* The words may be CHAP secrets (rd.iscsi.password=). */
	explicit_bzero(&w, sizeof(w));
	return r;
}

bool cmdline_bool(const char *value)
{
	if (!value)
		return true;
	return !(strcmp(value, "0") == 0 || strcmp(value, "no") == 0 ||
		 strcmp(value, "false") == 0 || strcmp(value, "off") == 0);
}

static void *field(void *args, const struct cmdline_word *w)
{
	return (char *)args + w->offset;
}

/* NULL (no '=') clears the string. */
int cmdline_set_string(void *args, const struct cmdline_word *w, const char *value)
{
	if (!value)
		value = "";
	if (strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	strcpy(field(args, w), value);
	return 0;
}

int cmdline_set_flag(void *args, const struct cmdline_word *w, const char *value)
{
	*(bool *)field(args, w) = cmdline_bool(value);
	return 0;
}

/* Decimal, no sign, at most max. */
static int parse_unsigned(const char *value, unsigned long max, unsigned long *out)
{
	char *end;

	if (!value || !*value || *value == '-' || *value == '+')
		return -EINVAL;
	errno = 0;
	*out = strtoul(value, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return *out > max ? -ERANGE : 0;
}

int cmdline_set_seconds(void *args, const struct cmdline_word *w, const char *value)
{
	unsigned long v;
	int r = parse_unsigned(value, CMDLINE_TIMEOUT_MAX, &v);

	if (r == 0)
		*(unsigned int *)field(args, w) = (unsigned int)v;
	return r;
}

/* A TCP port, 1..65535; anything else is refused. */
int cmdline_set_port(void *args, const struct cmdline_word *w, const char *value)
{
	unsigned long v;
	int r = parse_unsigned(value, 65535, &v);

	if (r == 0 && v == 0)
		r = -EINVAL;
	if (r == 0)
		*(unsigned int *)field(args, w) = (unsigned int)v;
	return r == -ERANGE ? -EINVAL : r;
}

int cmdline_set_list(void *args, const struct cmdline_word *w, const char *value)
{
	if (!value)
		return -EINVAL;
	return strv_split_append(field(args, w), value, ",");
}

/* Once: the image's /etc/cmdline.d and the kernel's line may both say it. */
int cmdline_set_word_once(void *args, const struct cmdline_word *w, const char *value)
{
	char word[CMDLINE_VALUE_MAX * 2];

	if (value && strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	snprintf(word, sizeof(word), "%s%s%s", w->name, value ? "=" : "", value ? value : "");
	return strv_push_unique(field(args, w), word);
}

static const struct cmdline_word *word_find(const struct cmdline_owner *o, const char *word,
					    size_t name_len)
{
	for (size_t i = 0; i < o->n_words; i++)
		if (strlen(o->words[i].name) == name_len &&
		    strncmp(o->words[i].name, word, name_len) == 0)
			return &o->words[i];
	return NULL;
}

/* Each refused word is said once, by name: its value may be a secret. */
static void report_refused(const char *source, const char *name, int r)
{
	if (r == -ERANGE)
		log_warn("%s: %s= asks for more than %u s; it was ignored", source, name,
			 CMDLINE_TIMEOUT_MAX);
	else
		log_warn("%s: %s= has a bad value (%s); it was ignored, see docs/cmdline.md for "
			 "its form", source, name, strerror(-r));
}

/* The word to the owner that declares it, else to the first that takes others. */
static int apply_word(const char *word, const char *source, const struct cmdline_owner *owners,
		      size_t n)
{
	const char *eq = strchr(word, '=');
	size_t name_len = eq ? (size_t)(eq - word) : strlen(word);
	int r;

	for (size_t i = 0; i < n; i++) {
		const struct cmdline_word *w = word_find(&owners[i], word, name_len);

		if (!w)
			continue;
		r = w->set(owners[i].args, w, eq ? eq + 1 : NULL);
		if (r < 0 && source)
			report_refused(source, w->name, r);
		return r;
	}
	for (size_t i = 0; i < n; i++)
		if (owners[i].other)
			return owners[i].other(owners[i].args, word);
	return 0;
}

/* A malformed value of one word does not stop the others: the init must
 * boot as far as it can. */
int cmdline_parse(const char *line, const char *source, const struct cmdline_owner *owners,
		  size_t n_owners)
{
	struct strv words = STRV_INIT;
	int first_err = 0;
	int r = cmdline_split(line, &words);

	for (size_t i = 0; r == 0 && i < words.len; i++) {
		int wr = apply_word(words.items[i], source, owners, n_owners);

		if (wr < 0 && first_err == 0)
			first_err = wr;
	}
	for (size_t i = 0; i < words.len; i++)
		explicit_bzero(words.items[i], strlen(words.items[i]));
	strv_free(&words);
	return r < 0 ? r : first_err;
}

const char *cmdline_owners_conflict(const struct cmdline_owner *owners, size_t n_owners)
{
	for (size_t i = 0; i < n_owners; i++)
		for (size_t j = 0; j < owners[i].n_words; j++) {
			const char *name = owners[i].words[j].name;

			for (size_t k = i; k < n_owners; k++)
				for (size_t l = k == i ? j + 1 : 0; l < owners[k].n_words; l++)
					if (strcmp(owners[k].words[l].name, name) == 0)
						return name;
		}
	return NULL;
}
