/* ls: list an initramfs image's entries, its build config and its modules. */
#include "gen/cmd/ls.h"

#include "common/layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/archive/archive.h"
#include "gen/gen_report.h"
#include "common/strv.h"

#define LS_CONFIG_PATH (&LAYOUT_BUILD_CONF[1])   /* archive names have no leading "/" */

/* The first name of a multiply-linked inode, to show later links against. */
struct link_seen {
	unsigned int member;
	unsigned long devmajor, devminor, ino;
	char *path;
};

struct ls {
	FILE *out;
	struct link_seen *links;
	size_t nlinks;
	char *config;            /* build.conf content, if the image has one */
	size_t config_len;
	struct strv modules;
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

/* The earlier name of the same inode, or NULL after remembering this one. */
static const char *link_first(struct ls *ls, const struct archive_entry *e, const char *path)
{
	const struct cpio_header *h = e->hdr;
	struct link_seen *p;

	for (size_t i = 0; i < ls->nlinks; i++) {
		p = &ls->links[i];
		if (p->member == e->member && p->ino == h->ino &&
		    p->devmajor == h->devmajor && p->devminor == h->devminor)
			return p->path;
	}
	p = realloc(ls->links, (ls->nlinks + 1) * sizeof(*p));
	if (!p)
		return NULL;
	ls->links = p;
	p[ls->nlinks] = (struct link_seen){ e->member, h->devmajor, h->devminor, h->ino, strdup(path) };
	if (p[ls->nlinks].path)
		ls->nlinks++;
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
		return strv_push_unique(&ls->modules, name);
	}
	return 0;
}

static int config_keep(struct ls *ls, const struct archive_entry *e)
{
	char *copy = malloc(e->size + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, e->data, e->size);
	free(ls->config);
	ls->config = copy;
	ls->config_len = e->size;
	return 0;
}

static void entry_print(struct ls *ls, const struct archive_entry *e, const char *path)
{
	const struct cpio_header *h = e->hdr;
	char mode[11];

	mode_string(h->mode, mode);
	if (S_ISCHR(h->mode) || S_ISBLK(h->mode))
		fprintf(ls->out, "%s %3lu %4lu,%4lu %s", mode, h->nlink, h->rdevmajor, h->rdevminor, path);
	else
		fprintf(ls->out, "%s %3lu %9lu %s", mode, h->nlink, h->filesize, path);
	if (S_ISLNK(h->mode))
		fprintf(ls->out, " -> %.*s", (int)e->size, (const char *)e->data);
	if (S_ISREG(h->mode) && h->nlink > 1) {
		const char *first = link_first(ls, e, path);

		if (first)
			fprintf(ls->out, " => %s", first);
	}
	fputc('\n', ls->out);
}

static int entry_list(const struct archive_entry *e, void *ctx)
{
	struct ls *ls = ctx;
	const char *path = path_clean(e->path);
	int err = 0;

	if (path[0] == '\0')
		path = ".";
	entry_print(ls, e, path);
	if (S_ISREG(e->hdr->mode) && strcmp(path, LS_CONFIG_PATH) == 0)
		err = config_keep(ls, e);
	if (err == 0 && S_ISREG(e->hdr->mode))
		err = module_note(ls, path);
	if (err < 0)
		gen_error("listing %s: %s", path, strerror(-err));
	return err;
}

static void sections_print(struct ls *ls)
{
	if (ls->config) {
		fprintf(ls->out, "\n/%s:\n", LS_CONFIG_PATH);
		fwrite(ls->config, 1, ls->config_len, ls->out);
		if (ls->config_len > 0 && ls->config[ls->config_len - 1] != '\n')
			fputc('\n', ls->out);
		/* build.c writes this line when the image carries CHAP secrets. */
		if (memmem(ls->config, ls->config_len, "\nsecrets = ", 11))
			fprintf(ls->out, "\nnote: this image carries secrets (see secrets = above); "
				"keep it readable by root only (it is written mode 0600)\n");
	}
	if (ls->modules.len > 0) {
		strv_sort(&ls->modules);
		fprintf(ls->out, "\nmodules:\n");
		for (size_t i = 0; i < ls->modules.len; i++)
			fprintf(ls->out, "%s\n", ls->modules.items[i]);
	}
}

static void ls_free(struct ls *ls)
{
	for (size_t i = 0; i < ls->nlinks; i++)
		free(ls->links[i].path);
	free(ls->links);
	free(ls->config);
	strv_free(&ls->modules);
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
