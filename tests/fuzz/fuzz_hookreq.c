/* fuzz_hookreq: a hooks.d executable's output (gen/host/hookreq.c) on
 * arbitrary bytes; what parses must keep the contract: paths absolute
 * with no ".." part, a known stage, no control character in any field,
 * lines numbered in order within the text's. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hookspec.h"
#include "gen/host/hookreq.h"

static void check_text(const char *s)
{
	if (!s)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

static void check_path(const char *p)
{
	check_text(p);
	if (p[0] != '/' || strstr(p, "/../") || strstr(p, "//") ||
	    (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0))
		abort();
}

static void check(const struct hookreq *q, unsigned int lines)
{
	if (q->line == 0 || q->line > lines)
		abort();
	check_text(q->arg);
	switch (q->kind) {
	case HOOKREQ_FILE:
	case HOOKREQ_PROGRAM:
		check_path(q->arg);
		if (q->dest)
			check_path(q->dest);
		break;
	case HOOKREQ_SYMLINK:
		/* The target is the link's text; its path is checked. */
		if (!q->dest || strpbrk(q->arg, " \t"))
			abort();
		check_path(q->dest);
		break;
	case HOOKREQ_DIR:
		if (q->dest)
			abort();
		check_path(q->arg);
		break;
	case HOOKREQ_SCRIPT:
		check_path(q->arg);
		if (!q->stage || hookspec_stage_find(q->stage) != q->stage)
			abort();
		break;
	case HOOKREQ_MODULE:
		if (strchr(q->arg, '/') || strchr(q->arg, ' ') || strlen(q->arg) > HOOKREQ_NAME_MAX)
			abort();
		break;
	case HOOKREQ_CMDLINE:
		if (!q->arg[0] || q->arg[0] == ' ' || strchr(q->arg, '\t'))
			abort();
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hookreq_list l = { 0 };
	unsigned int lines = 1, prev = 0;
	char err[256];

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	hookreq_parse((const char *)data, size, "fuzz", &l, err, sizeof(err));
	for (size_t i = 0; i < l.len; i++) {
		check(&l.items[i], lines);
		if (l.items[i].line <= prev)
			abort();
		prev = l.items[i].line;
	}
	hookreq_list_free(&l);
	return 0;
}
