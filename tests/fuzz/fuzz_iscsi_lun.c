/* fuzz_iscsi_lun: finding the session and the LUN's disk in a sysfs tree
 * made from the input (a test's tree, as tests/unit/test_iscsi.c makes
 * one): no crash, a session found is one whose targetname is the one
 * asked for, a disk found is one the tree holds.
 * The input: the wanted target name and the wanted LUN (a line each; an
 * empty LUN line: any), then one line per LUN: the session directory,
 * the target name in its targetname file, the SCSI device H:C:T:L and the
 * disk's name, separated by tabs. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/iscsi/iscsi_lun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENTRIES_MAX 8
#define FIELD_MAX 300

static char root[64];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void tree_remove(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The next tab- or newline-ended field of *text, copied to out. */
static void field_next(const char **text, char *out, char end)
{
	size_t n = strcspn(*text, end == '\t' ? "\t\n" : "\n");
	size_t keep = n < FIELD_MAX - 1 ? n : FIELD_MAX - 1;

	memcpy(out, *text, keep);
	out[keep] = '\0';
	*text += n + ((*text)[n] != '\0');
}

/* A directory entry's name: what mkdir can make in one step. */
static bool name_ok(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

struct entry {
	char session[FIELD_MAX], target[FIELD_MAX], hctl[FIELD_MAX], disk[FIELD_MAX];
};

static void entry_make(const struct entry *e)
{
	char path[4 * FIELD_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, e->session);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/targetname", root, e->session);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", e->target);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%s/device", root, e->session);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/device/target0:0:0", root, e->session);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/device/target0:0:0/%s", root, e->session, e->hctl);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/device/target0:0:0/%s/block", root, e->session, e->hctl);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/device/target0:0:0/%s/block/%s", root, e->session, e->hctl,
		 e->disk);
	mkdir(path, 0700);
}

static void check(const char *wanted, bool lun_given, unsigned long long lun,
		  const struct entry *e, size_t n)
{
	char session[256], dev[64];
	bool known = false;

	if (!iscsi_lun_session(root, wanted, session, sizeof(session)))
		return;
	for (size_t i = 0; i < n; i++)
		known |= strcmp(e[i].session, session) == 0 && strcmp(e[i].target, wanted) == 0;
	if (!known)
		abort();
	if (iscsi_lun_disk(root, session, lun_given, lun, dev, sizeof(dev)) < 0)
		return;
	known = false;
	for (size_t i = 0; i < n; i++)
		known |= strcmp(e[i].session, session) == 0 && strcmp(e[i].disk, dev) == 0;
	if (!known)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct entry e[ENTRIES_MAX];
	char wanted[FIELD_MAX], lun[FIELD_MAX];
	char *text = malloc(size + 1);
	const char *p = text;
	size_t n = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (!root[0]) {
		snprintf(root, sizeof(root), "/dev/shm/fuzz-iscsi-lun-XXXXXX");
		if (!mkdtemp(root))
			abort();
		atexit(tree_remove);
	}
	field_next(&p, wanted, '\n');
	field_next(&p, lun, '\n');
	while (*p && n < ENTRIES_MAX) {
		field_next(&p, e[n].session, '\t');
		field_next(&p, e[n].target, '\t');
		field_next(&p, e[n].hctl, '\t');
		field_next(&p, e[n].disk, '\n');
		/* sysfs names are plain; an IQN is at most 223 bytes, and the
		 * reader takes 255 of the targetname file. */
		if (name_ok(e[n].session) && name_ok(e[n].hctl) && name_ok(e[n].disk) &&
		    e[n].disk[0] != '.' && strlen(e[n].target) <= 223)
			entry_make(&e[n++]);
	}
	check(wanted, lun[0] != '\0', strtoull(lun, NULL, 10), e, n);
	tree_remove();
	mkdir(root, 0700);
	free(text);
	return 0;
}
