/* fuzz_savedir: the capture's saving into a dump directory (kdump/savedir.c,
 * kdump/dumpdir.c) against directory trees another user prepared. The
 * input is text: the SUBDIR line, the dump's NAME line, then one
 * operation a line, run in a sandbox before the save:
 *   d PATH MODE UID     a directory (MODE octal; UID 0, else 65534)
 *   f PATH MODE UID     a file holding "pre"
 *   l PATH / L PATH     a symlink to the sandbox's outside directory / to
 *                       the canary file in it
 *   m MODE UID          the mount point's own mode and owner
 * PATH is under the mount point; no "..", nothing through a symlink.
 * After the save, whatever it returned: no file but the dump's own holds
 * the crashed kernel's secret; the outside directory and the canary, and
 * every prepared file, are as they were; a saved dump is root's, 0600 in
 * a new 0700 directory, under directories no other user can change.
 * Needs root (the owners); run it where /dev/shm is a tmpfs. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdump/capture.h"
#include "kdump/savedir.h"

#define OTHER 65534
#define MAX_OPS 32

/* bootlib/log.c writes to /dev/kmsg: not from a fuzzer. */
void log_set_debug(bool on) { (void)on; }
void log_set_prefix(const char *name) { (void)name; }
void log_error(const char *fmt, ...) { (void)fmt; }
void log_warn(const char *fmt, ...) { (void)fmt; }
void log_info(const char *fmt, ...) { (void)fmt; }
void log_debug(const char *fmt, ...) { (void)fmt; }
void log_console(const char *fmt, ...) { (void)fmt; }

static char base[64], mnt[80], outside[80], canary[96];
static char secret[] = "[ 1.0] secret-key=0123456789abcdef\n";
static ino_t found_secret;          /* the inode of the last file found holding it */
static int secrets;

static char prepared[MAX_OPS][200];
static int nprepared;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag;
	return ftw->level ? remove(path) : 0;
}

static void sandbox_reset(void)
{
	int fd;

	nftw(mnt, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(outside, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	chmod(mnt, 0755);
	chown(mnt, 0, 0);
	chmod(outside, 0777);
	fd = open(canary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "canary", 6) != 6)
		abort();
	close(fd);
	nprepared = 0;
}

/* PATH is safe to make: relative, no "..", no symlink on the way. */
static bool path_ok(const char *rel, char *full, size_t size)
{
	struct stat st;

	if (!rel[0] || rel[0] == '/' || strstr(rel, "..") || strlen(rel) > 150)
		return false;
	snprintf(full, size, "%s/%s", mnt, rel);
	for (char *p = full + strlen(mnt) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		bool link = lstat(full, &st) == 0 && !S_ISDIR(st.st_mode);
		*p = '/';
		if (link)
			return false;
	}
	return true;
}

static void op_run(char kind, const char *rel, unsigned mode, unsigned uid)
{
	char full[256];
	uid_t owner = uid ? OTHER : 0;
	int fd;

	if (kind == 'm') {
		chmod(mnt, mode & 07777);
		chown(mnt, owner, owner);
		return;
	}
	if (!path_ok(rel, full, sizeof(full)))
		return;
	if (kind == 'd' && mkdir(full, 0700) == 0) {
		chmod(full, mode & 07777);
		chown(full, owner, owner);
	} else if (kind == 'f' && (fd = open(full, O_WRONLY | O_CREAT | O_EXCL, 0600)) >= 0) {
		if (write(fd, "pre", 3) != 3)
			abort();
		close(fd);
		chmod(full, mode & 07777);
		chown(full, owner, owner);
		snprintf(prepared[nprepared++], sizeof(prepared[0]), "%s", full);
	} else if (kind == 'l' || kind == 'L') {
		symlink(kind == 'l' ? outside : canary, full);
	}
}

/* The first two lines into subdir and name, the rest run as operations. */
static void input_run(char *text, char *subdir, size_t ssize, char *name, size_t nsize)
{
	char *line, *rest = text;

	subdir[0] = name[0] = '\0';
	for (int n = 0; (line = strsep(&rest, "\n")) && n < MAX_OPS + 2; n++) {
		char kind, rel[200] = "";
		unsigned mode = 0, uid = 0;

		if (n == 0 && line[0] == '/')        /* SUBDIR is "" or "/DIR" */
			snprintf(subdir, ssize, "%s", line);
		else if (n == 1)
			snprintf(name, nsize, "%s", line);
		else if (n >= 2 && line[0] == 'm' && sscanf(line, "m %o %u", &mode, &uid) >= 1)
			op_run('m', "", mode, uid);
		else if (n >= 2 && sscanf(line, "%c %199s %o %u", &kind, rel, &mode, &uid) >= 2)
			op_run(kind, rel, mode, uid);
	}
}

static bool holds_secret(const char *path)
{
	char buf[sizeof(secret)] = "";
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(secret) && memcmp(buf, secret, (size_t)n) == 0;
}

static int find_secret(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode) && holds_secret(path)) {
		secrets++;
		found_secret = st->st_ino;
	}
	return 0;
}

static void file_is(const char *path, const char *text, mode_t mode)
{
	char buf[16] = "";
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW);

	if (fd < 0 || fstat(fd, &st) < 0 || read(fd, buf, sizeof(buf) - 1) < 0 ||
	    strcmp(buf, text) != 0 || (mode && (st.st_mode & 07777) != mode))
		abort();
	close(fd);
}

/* Every directory from the mount point down to the dump's own: root's,
 * and others cannot change it (not group/other-writable, or sticky). */
static void way_trusted(const char *subdir, const char *name)
{
	char path[512];
	size_t len = (size_t)snprintf(path, sizeof(path), "%s%s/%s", mnt, subdir, name);
	struct stat st;

	for (size_t end = strlen(mnt); end <= len; end++) {
		if (path[end] != '/' && path[end] != '\0')
			continue;
		char keep = path[end];

		path[end] = '\0';
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
			abort();
		path[end] = keep;
	}
}

static void check_after(int r, const char *subdir, const struct capture *cap)
{
	char dump[512];
	struct stat st;

	secrets = 0;
	nftw(base, find_secret, 16, FTW_PHYS);
	file_is(canary, "canary", 0644);
	for (int i = 0; i < nprepared; i++)
		if (lstat(prepared[i], &st) == 0 && S_ISREG(st.st_mode))
			file_is(prepared[i], "pre", 0);
	if (r < 0) {
		if (secrets)
			abort();
		return;
	}
	snprintf(dump, sizeof(dump), "%s%s/%s/vmcore-dmesg.txt", mnt, subdir, cap->name);
	if (secrets != 1 || lstat(dump, &st) < 0 || st.st_ino != found_secret ||
	    st.st_uid != 0 || (st.st_mode & 0777) != 0600)
		abort();
	way_trusted(subdir, cap->name);
	*strrchr(dump, '/') = '\0';
	/* A set-group-ID parent passes its bit on: the group gets no access all the same. */
	if (lstat(dump, &st) < 0 || (st.st_mode & 0777) != 0700)
		abort();
	for (int i = 0; i < nprepared; i++)
		if (strncmp(prepared[i], dump, strlen(dump)) == 0 && prepared[i][strlen(dump)] == '/')
			abort();        /* the dump went into a directory the input made */
}

static int remove_any(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void sandbox_remove(void)
{
	nftw(base, remove_any, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	snprintf(base, sizeof(base), "%s/fuzz_savedirXXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (geteuid() != 0 || !mkdtemp(base))
		abort();
	chmod(base, 0755);
	snprintf(mnt, sizeof(mnt), "%s/mnt", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	snprintf(canary, sizeof(canary), "%s/canary", outside);
	if (mkdir(mnt, 0755) < 0 || mkdir(outside, 0777) < 0)
		abort();
	atexit(sandbox_remove);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct capture cap;
	char *text, subdir[160], name[160];
	int r;

	if (size > 4096 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	sandbox_reset();
	input_run(text, subdir, sizeof(subdir), name, sizeof(name));
	free(text);
	memset(&cap, 0, sizeof(cap));
	snprintf(cap.name, sizeof(cap.name), "%s", name);
	cap.dmesg = secret;
	cap.dmesg_len = strlen(secret);
	r = savedir_save(&cap, mnt, subdir, "fuzz");
	check_after(r, subdir, &cap);
	return 0;
}
