/* ls: list an initramfs image's entries, its build config and its modules. */
#include "gen/cmd/ls.h"

#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/layout.h"
#include "common/redact.h"
#include "common/strv.h"
#include "common/termescape.h"
#include "gen/archive/archive.h"
#include "gen/gen_report.h"

#define LS_CONFIG_PATH (&LAYOUT_BUILD_CONF[1])   /* archive names have no leading "/" */
/* The longest symlink target the kernel makes (PATH_MAX with its NUL): more
 * of a hostile one is not shown. */
#define LS_LINK_SHOWN 4095
/* build.c writes a few hundred bytes; a hostile image's is not shown whole. */
#define LS_CONFIG_SHOWN (64 * 1024)

/* The first name of a multiply-linked inode, to show later links against. */
struct link_seen {
	unsigned int member;
	unsigned long devmajor, devminor, ino;
	char *path;
};

struct ls {
	FILE *out;
	void *links;             /* a tsearch tree of struct link_seen */
	char *config;            /* build.conf's first LS_CONFIG_SHOWN bytes, if the image has one, redacted */
	size_t config_len;
	size_t config_size;      /* the whole file's */
	bool config_secrets;     /* a secret was taken out of what is shown */
	struct strv modules;     /* with repeats: sorted and made unique when printed */
	char *text;              /* the last escaped text (term_escape) */
	size_t text_cap;
};

static const char *const module_suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

/* "drwxr-xr-x" from a mode, as ls -l prints it. */
static void mode_string(unsigned long mode, char s[11])
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";

	s[0] = types[(mode >> 12) & 15];
	for (int i = 0; i < 9; i++)
		s[1 + i] = (mode & (0400UL >> i)) ? rwx[i] : '-';
	if (mode & S_ISUID)
		s[3] = s[3] == 'x' ? 's' : 'S';
	if (mode & S_ISGID)
		s[6] = s[6] == 'x' ? 's' : 'S';
	if (mode & S_ISVTX)
		s[9] = s[9] == 'x' ? 't' : 'T';
	s[10] = '\0';
}

/* Names are stored as "usr/x", "./usr/x" or "/usr/x" by different tools. */
static const char *path_clean(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	while (p[0] == '/')
		p++;
	return p;
}

/* Inodes by member, device and number, for tsearch. */
static int link_compare(const void *a, const void *b)
{
	const struct link_seen *x = a, *y = b;

	if (x->member != y->member)
		return x->member < y->member ? -1 : 1;
	if (x->devmajor != y->devmajor)
		return x->devmajor < y->devmajor ? -1 : 1;
	if (x->devminor != y->devminor)
		return x->devminor < y->devminor ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void link_free(void *p)
{
	struct link_seen *l = p;

	free(l->path);
	free(l);
}

/* The earlier name of the same inode, or NULL after remembering this one.
 * A balanced tree (glibc's tsearch is red-black), not a hash: an image's
 * inode numbers are chosen by whoever made it, so no lookup may degrade. */
static const char *link_first(struct ls *ls, const struct archive_entry *e, const char *path)
{
	const struct cpio_header *h = e->hdr;
	struct link_seen key = { e->member, h->devmajor, h->devminor, h->ino, NULL };
	struct link_seen **found = tfind(&key, &ls->links, link_compare), *p;

	if (found)
		return (*found)->path;
	p = malloc(sizeof(*p));
	if (!p)
		return NULL;
	*p = key;
	p->path = strdup(path);
	if (!p->path || !tsearch(p, &ls->links, link_compare))
		link_free(p);
	return NULL;
}

/* A kernel module's name from its file name, with '-' as '_' as the kernel
 * spells it; 0 without adding if path is not a module. */
static int module_note(struct ls *ls, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t blen;

	base = base ? base + 1 : path;
	blen = strlen(base);
	for (size_t i = 0; i < sizeof(module_suffixes) / sizeof(module_suffixes[0]); i++) {
		size_t slen = strlen(module_suffixes[i]);
		char name[256];

		if (blen <= slen || blen - slen >= sizeof(name) ||
		    strcmp(base + blen - slen, module_suffixes[i]) != 0)
			continue;
		memcpy(name, base, blen - slen);
		name[blen - slen] = '\0';
		for (char *c = name; *c; c++)
			*c = *c == '-' ? '_' : *c;
		return strv_push(&ls->modules, name);
	}
	return 0;
}

/* Kept without secrets: an image made before the redaction decided on the
 * parsed words may show `root="iscsi:u:p@..."` in its cmdline line. */
static int config_keep(struct ls *ls, const struct archive_entry *e)
{
	size_t len = e->size < LS_CONFIG_SHOWN ? e->size : LS_CONFIG_SHOWN, shown_len;
	bool found;
	char *copy = redact_lines((const char *)e->data, len, &shown_len, &found);

	if (!copy)
		return -ENOMEM;
	free(ls->config);
	ls->config = copy;
	ls->config_len = shown_len;
	ls->config_size = e->size;
	ls->config_secrets |= found;
	return 0;
}

/* s[0..len) escaped (common/termescape.h) in ls->text, which grows to fit;
 * NULL without memory. */
static const char *text_escape(struct ls *ls, const void *s, size_t len, unsigned int flags)
{
	size_t need = term_escape(NULL, 0, s, len, flags) + 1;

	if (need > ls->text_cap) {
		char *p = realloc(ls->text, need);

		if (!p)
			return NULL;
		ls->text = p;
		ls->text_cap = need;
	}
	term_escape(ls->text, ls->text_cap, s, len, flags);
	return ls->text;
}

/* Print s[0..len) escaped; returns 0 or -ENOMEM. */
static int text_print(struct ls *ls, const void *s, size_t len, unsigned int flags)
{
	const char *t = text_escape(ls, s, len, flags);

	if (!t)
		return -ENOMEM;
	fputs(t, ls->out);
	return 0;
}

/* " -> TARGET", at most LS_LINK_SHOWN bytes of it, saying so when cut. */
static int link_target_print(struct ls *ls, const struct archive_entry *e)
{
	size_t shown = e->size < LS_LINK_SHOWN ? e->size : LS_LINK_SHOWN;
	int err;

	fputs(" -> ", ls->out);
	err = text_print(ls, e->data, shown, 0);
	if (err == 0 && shown < e->size)
		fprintf(ls->out, " [cut: the target is %zu bytes, longer than any symlink the kernel "
			"makes]", e->size);
	return err;
}

/* One line; names and targets escaped, as they come from the image. */
static int entry_print(struct ls *ls, const struct archive_entry *e, const char *path)
{
	const struct cpio_header *h = e->hdr;
	char mode[11];
	int err;

	mode_string(h->mode, mode);
	if (S_ISCHR(h->mode) || S_ISBLK(h->mode))
		fprintf(ls->out, "%s %3lu %4lu,%4lu ", mode, h->nlink, h->rdevmajor, h->rdevminor);
	else
		fprintf(ls->out, "%s %3lu %9lu ", mode, h->nlink, h->filesize);
	err = text_print(ls, path, strlen(path), 0);
	if (err == 0 && S_ISLNK(h->mode))
		err = link_target_print(ls, e);
	if (err == 0 && S_ISREG(h->mode) && h->nlink > 1) {
		const char *first = link_first(ls, e, path);

		if (first) {
			fputs(" => ", ls->out);
			err = text_print(ls, first, strlen(first), 0);
		}
	}
	fputc('\n', ls->out);
	return err;
}

static int entry_list(const struct archive_entry *e, void *ctx)
{
	struct ls *ls = ctx;
	const char *path = path_clean(e->path);
	int err = 0;

	if (path[0] == '\0')
		path = ".";
	err = entry_print(ls, e, path);
	if (err == 0 && S_ISREG(e->hdr->mode) && strcmp(path, LS_CONFIG_PATH) == 0)
		err = config_keep(ls, e);
	if (err == 0 && S_ISREG(e->hdr->mode))
		err = module_note(ls, path);
	if (err < 0) {
		const char *shown = text_escape(ls, path, strlen(path), 0);

		gen_error("listing %s: %s", shown ? shown : "an entry", strerror(-err));
	}
	return err;
}

static void sections_print(struct ls *ls)
{
	if (ls->config) {
		fprintf(ls->out, "\n/%s:\n", LS_CONFIG_PATH);
		if (text_print(ls, ls->config, ls->config_len, TERM_ESCAPE_KEEP_NEWLINE) < 0)
			fputs("[not shown: out of memory]", ls->out);
		if (ls->config_len > 0 && ls->config[ls->config_len - 1] != '\n')
			fputc('\n', ls->out);
		if (ls->config_size > LS_CONFIG_SHOWN)
			fprintf(ls->out, "[cut: the file is %zu bytes, more than any build.conf "
				"lifeboat writes]\n", ls->config_size);
		/* build.c writes this line when the image carries CHAP secrets. */
		if (ls->config_secrets || memmem(ls->config, ls->config_len, "\nsecrets = ", 11))
			fprintf(ls->out, "\nnote: this image carries secrets (see secrets = above); "
				"keep it readable by root only (it is written mode 0600)\n");
	}
	if (ls->modules.len > 0) {
		strv_sort(&ls->modules);
		fprintf(ls->out, "\nmodules:\n");
		for (size_t i = 0; i < ls->modules.len; i++) {
			const char *m = ls->modules.items[i];

			if (i > 0 && strcmp(m, ls->modules.items[i - 1]) == 0)
				continue;
			if (text_print(ls, m, strlen(m), 0) < 0)
				fputs("[not shown: out of memory]", ls->out);
			fputc('\n', ls->out);
		}
	}
}

static void ls_free(struct ls *ls)
{
	tdestroy(ls->links, link_free);
	free(ls->config);
	free(ls->text);
	strv_free(&ls->modules);
}

int ls_buffer(FILE *out, const void *buf, size_t len, struct archive_error *why)
{
	struct ls ls = { .out = out, .modules = STRV_INIT };
	int err = archive_walk_buffer(buf, len, entry_list, &ls, why);

	if (err == 0)
		sections_print(&ls);
	ls_free(&ls);
	return err;
}

int ls_main(int argc, char **argv)
{
	struct ls ls = { .out = stdout, .modules = STRV_INIT };
	int err;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: lifeboat ls IMAGE\n");
		return 0;
	}
	if (argc != 2) {
		gen_error("usage: lifeboat ls IMAGE");
		return 1;
	}
	err = archive_walk_file(argv[1], entry_list, &ls);
	if (err == 0)
		sections_print(&ls);
	ls_free(&ls);
	if (err == 0 && fflush(stdout) != 0) {
		gen_error("writing the listing of %s: %s", argv[1], strerror(errno));
		err = -EIO;
	}
	return err < 0 ? 1 : 0;
}
