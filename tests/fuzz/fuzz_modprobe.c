/* Fuzz target: lifeboat's modprobe (rescue/modprobe.h) on arbitrary input:
 * its arguments, and modprobe -r and the rescue shell's filesystem types
 * (bootlib/shellsetup.h) over a module table. The input is split at its
 * first line starting with "?": the table before it, that line's rest the
 * arguments, separated by blanks. A fake kernel unloads each module once,
 * as the real one does. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bootlib/shellsetup.h"
#include "common/modtab.h"
#include "rescue/modprobe.h"

#define MAX_ARGS 16

static struct strv unloaded = STRV_INIT;

static int fake_delete(const char *name)
{
	if (strv_contains(&unloaded, name))
		return -ENOENT;
	return strv_push(&unloaded, name) < 0 ? -ENOMEM : 0;
}

/* argv from the words of line (cut in place). */
static int args_split(char *line, char **argv)
{
	int argc = 0;

	argv[argc++] = "modprobe";
	for (char *w = strtok(line, " \t"); w && argc < MAX_ARGS; w = strtok(NULL, " \t"))
		argv[argc++] = w;
	return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *q = memmem(text, size, "\n?", 2);
	size_t table_len = q ? (size_t)(q - text) + 1 : size;
	char line[512] = "-r ext4 fs-xfs", err[128], *argv[MAX_ARGS];
	struct modprobe_request req;
	struct strv types = STRV_INIT;
	struct modtab t;
	char name[64];
	int argc;

	if (q) {
		size_t len = size - table_len - 1;

		len = len >= sizeof(line) ? sizeof(line) - 1 : len;
		memcpy(line, q + 2, len);
		line[len] = '\0';
	}
	argc = args_split(line, argv);
	if (modprobe_parse(argc, argv, &req, err, sizeof(err)) == 0 &&
	    modtab_parse(text, table_len, &t, NULL) == 0) {
		modprobe_delete_fn = fake_delete;
		for (size_t i = 0; i < req.names.len; i++) {
			modprobe_remove(&t, req.names.items[i]);
			modprobe_name_of(req.names.items[i], name, sizeof(name));
		}
		shellsetup_fstypes(&t, &types);
		strv_free(&types);
		strv_free(&unloaded);
		modtab_free(&t);
	}
	modprobe_request_free(&req);
	return 0;
}
