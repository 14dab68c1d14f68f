/* lastreport: the last way out's lines, from pstore, for the next boot.
 *
 * Why the kernel log and not a file: when the way out ends, the root and
 * every layer under it are taken down on purpose, so no persistent place
 * that it could write is left (a file written before the unmount could not
 * say how the unmount went). Its messages go to the kernel log anyway;
 * where the machine keeps that log across a reboot (pstore), the next boot
 * finds them by their fixed prefix. */
#include "shutdown/lastreport.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/timeline.h"
#include "common/fileread.h"
#include "common/layout.h"

#define RECORD_MAX (1024 * 1024)
#define REPORT_MAX (64 * 1024)

size_t lastreport_extract(const char *text, size_t len, char *out, size_t size)
{
	size_t used = strnlen(out, size), lines = 0;
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);
		const char *at = memmem(text, n, LASTREPORT_PREFIX, strlen(LASTREPORT_PREFIX));

		if (at) {
			size_t take = n - (size_t)(at - text);

			/* Stop at a NUL inside the line: the rest is not text. */
			take = strnlen(at, take);
			if (used + take + 2 > size)
				break;
			memcpy(out + used, at, take);
			used += take;
			out[used++] = '\n';
			out[used] = '\0';
			lines++;
		}
		text += n + (nl ? 1 : 0);
	}
	return lines;
}

void lastreport_last_line(const char *report, char *line, size_t size)
{
	size_t len = strlen(report);
	const char *start;

	if (len && report[len - 1] == '\n')
		len--;
	start = memrchr(report, '\n', len);
	start = start ? start + 1 : report;
	snprintf(line, size, "%.*s", (int)(len - (size_t)(start - report)), start);
}

static void pstore_mount(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return;
	/* EBUSY: it is mounted already, which is as good. */
	mount("pstore", dir, "pstore", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

/* Byte order, not alphasort's: strcoll would pull glibc's locale code
 * into the static program that stays in memory. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Records in name order (dmesg-ramoops-0 before -1: the newest part of
 * the log first, as the kernel splits it), each one's lines appended. */
static size_t collect_records(const char *dir, char *report, size_t size)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, by_name);
	size_t lines = 0;

	for (int i = 0; i < n; i++) {
		char path[512], *text = NULL;
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && file_read_all(path, RECORD_MAX, &text, &len) == 0)
			lines += lastreport_extract(text, len, report, size);
		free(text);
		free(names[i]);
	}
	free(names);
	return lines;
}

static int write_report(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		r = -EIO;
	close(fd);
	return r;
}

int lastreport_collect(const char *pstore_dir, const char *out_path, char *last, size_t last_size)
{
	char *report = calloc(1, REPORT_MAX);
	size_t lines;
	int r;

	if (!report)
		return -ENOMEM;
	lines = collect_records(pstore_dir, report, REPORT_MAX);
	last[0] = '\0';
	if (lines == 0) {
		free(report);
		return 0;
	}
	lastreport_last_line(report, last, last_size);
	r = write_report(out_path, report);
	free(report);
	return r < 0 ? r : (int)lines;
}

void lastreport_show_last_boot(void)
{
	char last[256];
	int n;

	pstore_mount(LASTREPORT_PSTORE);
	n = lastreport_collect(LASTREPORT_PSTORE, LAYOUT_LAST_SHUTDOWN, last, sizeof(last));

	if (n < 0) {
		log_warn("the last shutdown's report was found in %s but %s cannot be written: %s",
			 LASTREPORT_PSTORE, LAYOUT_LAST_SHUTDOWN, strerror(-n));
		return;
	}
	if (n == 0)
		return;
	log_info("the last shutdown's way out (from %s; its %d lines in %s): %s", LASTREPORT_PSTORE,
		 n, LAYOUT_LAST_SHUTDOWN, last);
	timeline_mark("lastshutdown", "%s", last);
}
