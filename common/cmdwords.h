/* cmdwords: the kernel command line split into words, the one splitter of
 * the init's parser and of the redaction (common/redact.h). */
#ifndef LIFEBOAT_CMDWORDS_H
#define LIFEBOAT_CMDWORDS_H

#include <stdbool.h>
#include <stddef.h>

/* A word longer than this is cut: what the parser sees ends there. */
#define CMDWORD_MAX 4096

struct cmdword {
	const char *raw;          /* the word in the line, quotes included */
	size_t raw_len;
	char text[CMDWORD_MAX];   /* the word as parameters read it: quotes removed */
	size_t len;
	bool cut;                 /* text holds only the first CMDWORD_MAX - 1 bytes */
};

/* The next word of the line at *pos, split as the kernel does: blanks
 * (space, tab, newline) separate words, a double quote toggles grouping and
 * is removed wherever it is, so `a="b c"`, `"a=b c"` and `a=b" "c` are all
 * the word `a=b c`. *pos moves past the word. Returns false at the end. */
bool cmdwords_next(const char **pos, struct cmdword *w);
/* Whether c separates words (outside quotes): space, tab, newline. */
bool cmdwords_blank(char c);
/* Where in w->raw the text's byte i (i < w->len) is. */
size_t cmdwords_raw_offset(const struct cmdword *w, size_t i);

#endif
