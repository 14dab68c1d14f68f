/* hookreq: parsing the request lines of a hooks.d executable. */
#include "gen/host/hookreq.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hookspec.h"

/* The most words a request other than cmdline has, plus one to notice more. */
#define WORDS_MAX 4

struct req_syntax {
	const char *word;
	enum hookreq_kind kind;
	unsigned int min, max;   /* words after the request's own */
	const char *usage;
};

static const struct req_syntax syntax[] = {
	{ "file",    HOOKREQ_FILE,    1, 2,        "SRC [DEST]" },
	{ "program", HOOKREQ_PROGRAM, 1, 2,        "PATH [DEST]" },
	{ "module",  HOOKREQ_MODULE,  1, 1,        "NAME" },
	{ "cmdline", HOOKREQ_CMDLINE, 1, UINT_MAX, "WORDS..." },
	{ "script",  HOOKREQ_SCRIPT,  2, 2,        "STAGE PATH" },
	{ "symlink", HOOKREQ_SYMLINK, 2, 2,        "TARGET PATH" },
	{ "dir",     HOOKREQ_DIR,     1, 1,        "PATH" },
};

#define N_SYNTAX (sizeof(syntax) / sizeof(syntax[0]))

/* One line being parsed: its words (pointers into buf) and where errors go. */
struct line {
	char buf[HOOKREQ_LINE_MAX + 1];
	char *words[WORDS_MAX];
	unsigned int n_words;     /* all of them, also past WORDS_MAX */
	unsigned int number;
	char *err;
	size_t err_size;
};

static int bad(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct line *l, const char *fmt, ...)
{
	int n = snprintf(l->err, l->err_size, "line %u: ", l->number);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < l->err_size)
		vsnprintf(l->err + n, l->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *hookreq_kind_name(enum hookreq_kind kind)
{
	for (size_t i = 0; i < N_SYNTAX; i++)
		if (syntax[i].kind == kind)
			return syntax[i].word;
	return "?";
}

/* Absolute, normal (no "", "." or ".." part: the image's path must be the
 * one the hook meant) and short enough for any path buffer. */
static bool path_ok(const char *p)
{
	size_t len = strlen(p);

	if (p[0] != '/' || len >= PATH_MAX || (len > 1 && p[len - 1] == '/'))
		return false;
	for (const char *part = p + 1; *part; ) {
		size_t n = strcspn(part, "/");

		if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.'))
			return false;
		part += n + (part[n] == '/');
	}
	return len > 1;
}

/* A module name or alias: no '/' (it names no file). */
static bool name_ok(const char *n)
{
	return strlen(n) <= HOOKREQ_NAME_MAX && !strchr(n, '/');
}

static int check_path(struct line *l, const char *what, const char *p)
{
	if (!path_ok(p))
		return bad(l, "%s '%.200s' is not an absolute path without '.', '..' or empty parts",
			   what, p);
	return 0;
}

/* The arguments of a request whose syntax is s. */
static int check_args(struct line *l, const struct req_syntax *s)
{
	char **a = l->words + 1;

	switch (s->kind) {
	case HOOKREQ_FILE:
	case HOOKREQ_PROGRAM:
		if (check_path(l, s->kind == HOOKREQ_FILE ? "SRC" : "PATH", a[0]) < 0)
			return -EINVAL;
		return l->n_words > 2 ? check_path(l, "DEST", a[1]) : 0;
	case HOOKREQ_SYMLINK:
		/* The target is the link's text: relative is fine, white space is not. */
		if (!a[0][0] || strlen(a[0]) >= PATH_MAX)
			return bad(l, "TARGET is empty or too long");
		return check_path(l, "PATH", a[1]);
	case HOOKREQ_DIR:
		return check_path(l, "PATH", a[0]);
	case HOOKREQ_MODULE:
		return name_ok(a[0]) ? 0 : bad(l, "module name '%.200s' is too long or holds a '/'", a[0]);
	case HOOKREQ_SCRIPT:
		if (!hookspec_stage_find(a[0]))
			return bad(l, "'%.64s' is no stage; the stages are cmdline, pre-udev, "
				   "pre-trigger, initqueue, initqueue/settled, pre-mount, mount, "
				   "pre-pivot, cleanup", a[0]);
		return check_path(l, "PATH", a[1]);
	case HOOKREQ_CMDLINE:
		break;
	}
	return 0;
}

/* The words of a cmdline request (n bytes at rest), one space between
 * them, into *out; the quotes of the kernel's syntax must pair, or every
 * word after them would change. */
static int cmdline_words(struct line *l, const char *rest, size_t n, char **out)
{
	size_t quotes = 0;
	char *joined = malloc(n + 1), *o = joined;

	if (!joined)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (rest[i] == '"')
			quotes++;
		if (rest[i] != ' ' && rest[i] != '\t')
			*o++ = rest[i];
		else if (o > joined && o[-1] != ' ')
			*o++ = ' ';
	}
	if (o > joined && o[-1] == ' ')
		o--;
	*o = '\0';
	if (quotes % 2) {
		free(joined);
		return bad(l, "the cmdline request's double quotes do not pair");
	}
	*out = joined;
	return 0;
}

/* Split buf from p on spaces and tabs into l->words (counting past the
 * last slot, so that a word too many is noticed). */
static void split(struct line *l, char *p)
{
	l->n_words = 0;
	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			return;
		if (l->n_words < WORDS_MAX)
			l->words[l->n_words] = p;
		l->n_words++;
		p += strcspn(p, " \t");
		if (*p)
			*p++ = '\0';
	}
}

static int append(struct hookreq_list *out, const struct hookreq *r)
{
	if (out->len == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 16;
		struct hookreq *items = realloc(out->items, cap * sizeof(*items));

		if (!items)
			return -ENOMEM;
		out->items = items;
		out->cap = cap;
	}
	out->items[out->len++] = *r;
	return 0;
}

static void req_free(struct hookreq *r)
{
	free(r->arg);
	free(r->dest);
	free(r->hook);
}

static const struct req_syntax *syntax_find(const char *word)
{
	for (size_t i = 0; i < N_SYNTAX; i++)
		if (strcmp(syntax[i].word, word) == 0)
			return &syntax[i];
	return NULL;
}

/* The requests whose second word goes to dest: file's and program's
 * DEST, symlink's PATH. */
static bool has_dest(enum hookreq_kind kind)
{
	return kind == HOOKREQ_FILE || kind == HOOKREQ_PROGRAM || kind == HOOKREQ_SYMLINK;
}

/* The request of one line whose words are split, into r; rest (n bytes)
 * is what follows the first word, as written. */
static int make_request(struct line *l, const char *rest, size_t n, const char *hook,
			struct hookreq *r)
{
	const struct req_syntax *s = syntax_find(l->words[0]);

	if (!s)
		return bad(l, "unknown request '%.32s'; the requests are file, program, module, "
			   "cmdline, script, symlink and dir", l->words[0]);
	if (l->n_words - 1 < s->min || l->n_words - 1 > s->max)
		return bad(l, "'%s' needs %s", s->word, s->usage);
	if (check_args(l, s) < 0)
		return -EINVAL;
	*r = (struct hookreq){ .kind = s->kind, .line = l->number };
	if (s->kind == HOOKREQ_SCRIPT)
		r->stage = hookspec_stage_find(l->words[1]);
	if (s->kind == HOOKREQ_CMDLINE) {
		int e = cmdline_words(l, rest, n, &r->arg);

		if (e < 0)
			return e;
	} else {
		r->arg = strdup(l->words[s->kind == HOOKREQ_SCRIPT ? 2 : 1]);
	}
	if (has_dest(s->kind) && l->n_words > 2)
		r->dest = strdup(l->words[2]);
	r->hook = strdup(hook);
	if (!r->arg || !r->hook || (has_dest(s->kind) && l->n_words > 2 && !r->dest)) {
		req_free(r);
		return -ENOMEM;
	}
	return 0;
}

/* One line (len bytes at text, without its end) into out. */
static int parse_line(struct line *l, const char *text, size_t len, const char *hook,
		      struct hookreq_list *out)
{
	struct hookreq r;
	size_t skip;
	char *first;
	int e;

	if (len > HOOKREQ_LINE_MAX)
		return bad(l, "is longer than %d bytes", HOOKREQ_LINE_MAX);
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)text[i] < 0x20 && text[i] != '\t') || text[i] == 0x7f)
			return bad(l, "holds a control character (byte %zu)", i + 1);
	memcpy(l->buf, text, len);
	l->buf[len] = '\0';
	first = l->buf + strspn(l->buf, " \t");
	if (!*first || *first == '#')
		return 0;
	/* What follows the first word, as written: a cmdline request's words. */
	skip = (size_t)(first - l->buf) + strcspn(first, " \t");
	split(l, first);
	e = make_request(l, text + skip, len - skip, hook, &r);
	if (e == 0 && (e = append(out, &r)) < 0)
		req_free(&r);
	return e;
}

int hookreq_parse(const char *text, size_t len, const char *hook, struct hookreq_list *out,
		  char *err, size_t err_size)
{
	struct line *l = calloc(1, sizeof(*l));   /* 4 KiB: not on the stack */
	int r = 0;

	if (!l)
		return -ENOMEM;
	l->err = err;
	l->err_size = err_size;
	if (err_size)
		err[0] = '\0';
	while (r == 0 && len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;

		l->number++;
		r = parse_line(l, text, n, hook, out);
		text += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	free(l);
	return r;
}

void hookreq_list_free(struct hookreq_list *l)
{
	for (size_t i = 0; i < l->len; i++)
		req_free(&l->items[i]);
	free(l->items);
	*l = (struct hookreq_list){ 0 };
}
