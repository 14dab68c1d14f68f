/* hookreq: the requests a hooks.d executable writes on its standard output
 * (docs/extending.md has the contract), one a line:
 *
 *     file SRC [DEST]      a file of the build host, at DEST in the image (default SRC)
 *     program PATH [DEST]  an ELF program with the libraries it needs, at DEST (default PATH)
 *     module NAME          a kernel module, by name or alias, with its dependencies
 *     cmdline WORDS...     kernel command-line defaults (the kernel's words win)
 *     script STAGE PATH    a boot script the init runs at dracut's STAGE
 *     symlink TARGET PATH  a symbolic link at PATH whose text is TARGET
 *     dir PATH             a directory (mode 0755)
 *
 * Words are separated by spaces or tabs. Blank lines and lines whose first
 * word starts with '#' are ignored. Paths are absolute, with no ".", ".."
 * or empty part, and hold no white space. A line holds no control
 * character, NUL included, and is at most HOOKREQ_LINE_MAX bytes.
 */
#ifndef LIFEBOAT_HOOKREQ_H
#define LIFEBOAT_HOOKREQ_H

#include <stddef.h>

#define HOOKREQ_LINE_MAX 4096
/* A module name or alias (modules.alias has none longer). */
#define HOOKREQ_NAME_MAX 255

enum hookreq_kind {
	HOOKREQ_FILE,
	HOOKREQ_PROGRAM,
	HOOKREQ_MODULE,
	HOOKREQ_CMDLINE,
	HOOKREQ_SCRIPT,
	HOOKREQ_SYMLINK,
	HOOKREQ_DIR,
};

struct hookreq {
	enum hookreq_kind kind;
	char *arg;           /* SRC, PATH, NAME, WORDS (one space between them), the script's
				PATH, or the symlink's TARGET */
	char *dest;          /* file, program: DEST, or NULL for SRC; symlink: PATH; else NULL */
	const char *stage;   /* script: its entry of hookspec_stages; the others: NULL */
	char *hook;          /* the hook's name, for messages */
	unsigned int line;   /* of the hook's output */
};

struct hookreq_list {
	struct hookreq *items;
	size_t len;
	size_t cap;
};

/* Parse len bytes of a hook's output (text need not be NUL-terminated),
 * appending its requests to out. Returns 0; -EINVAL for a malformed line,
 * with err saying which and why ("line 3: 'file' needs SRC [DEST]"), the
 * requests before it appended; or -ENOMEM. err never quotes a cmdline
 * request (it may hold a secret). */
int hookreq_parse(const char *text, size_t len, const char *hook, struct hookreq_list *out,
		  char *err, size_t err_size);
void hookreq_list_free(struct hookreq_list *l);
/* "file", "program", "module", "cmdline", "script", "symlink", "dir". */
const char *hookreq_kind_name(enum hookreq_kind kind);

#endif
