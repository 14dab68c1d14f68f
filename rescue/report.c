/* report: /run/initramfs/rdsosreport.txt, everything needed to diagnose a boot. */
#include "rescue/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <stdbool.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/blkprobe.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "common/redact.h"
#include "common/timeline_format.h"
#include "rescue/netreport.h"

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static void section(FILE *out, const char *title)
{
	fprintf(out, "\n=== %s ===\n", title);
}

static void copy_file(FILE *out, const char *path)
{
	int r = file_read_to_stream(path, out);

	if (r < 0)
		fprintf(out, "(%s: %s)\n", path, strerror(-r));
}

/* text with each line redacted (common/redact.h): the kernel's own
 * "Kernel command line:" and "Unknown kernel command line parameters"
 * lines, and any other that names a secret, lose it. */
static void write_redacted(FILE *out, const char *text, size_t len)
{
	bool found;
	size_t shown_len;
	char *shown = redact_lines(text, len, &shown_len, &found);

	if (!shown)
		fprintf(out, "(left out: no memory to remove the secrets it may hold)\n");
	else
		fwrite(shown, 1, shown_len, out);
	free(shown);
}

/* A command line or build.conf with its secrets (iSCSI CHAP) replaced: the
 * report is meant to be shared. */
static void copy_redacted(FILE *out, const char *path)
{
	char text[8192];
	ssize_t n = file_read_text(path, 0, text, sizeof(text));

	if (n < 0) {
		fprintf(out, "(%s: %s)\n", path, strerror((int)-n));
		return;
	}
	write_redacted(out, text, (size_t)n);
	explicit_bzero(text, (size_t)n);
}

/* Each /etc/cmdline.d file with its name: what the image adds to the
 * kernel's command line. */
static void copy_dir_files(FILE *out, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			char path[512];

			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			fprintf(out, "%s: ", path);
			copy_redacted(out, path);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

static void write_kernel_log(FILE *out)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf = size > 0 ? malloc((size_t)size) : NULL;
	int n = buf ? klogctl(SYSLOG_ACTION_READ_ALL, buf, size) : -1;

	if (n < 0)
		fprintf(out, "(the kernel log cannot be read: %s)\n", strerror(errno));
	else
		write_redacted(out, buf, (size_t)n);
	free(buf);
}

/* Interfaces, addresses and routes (rescue/netreport.c); left out when
 * only lo exists, as then the network was not used. */
static void write_network(FILE *out)
{
	if (!netreport_wanted())
		return;
	section(out, "network (interfaces, addresses, routes)");
	netreport_write(out);
	copy_file(out, "/etc/resolv.conf");
}

static void write_sections(FILE *out, const char *what)
{
	fprintf(out, "lifeboat rescue report\n\nwhy: %s\n", what);
	section(out, "kernel command line (/proc/cmdline, then the image's /etc/cmdline.d)");
	copy_redacted(out, "/proc/cmdline");
	copy_dir_files(out, LAYOUT_CMDLINE_DIR);
	section(out, "image build settings (/etc/lifeboat/build.conf)");
	copy_redacted(out, LAYOUT_BUILD_CONF);
	section(out, "timeline (/run/initramfs/timeline)");
	copy_file(out, TIMELINE_FORMAT_PATH);
	/* Only when the last shutdown's way out was kept (pstore): a failed
	 * take-down there (an array not stopped) can explain this boot. */
	if (access(LAYOUT_LAST_SHUTDOWN, F_OK) == 0) {
		section(out, "the last shutdown's way out (" LAYOUT_LAST_SHUTDOWN ")");
		copy_file(out, LAYOUT_LAST_SHUTDOWN);
	}
	section(out, "block devices (blkid)");
	if (blkprobe_list(out) == 0)
		fprintf(out, "  (none)\n");
	section(out, "loaded modules (/proc/modules)");
	copy_file(out, "/proc/modules");
	section(out, "mounts (/proc/mounts)");
	copy_file(out, "/proc/mounts");
	write_network(out);
	section(out, "kernel log");
	write_kernel_log(out);
}

/* Created for root only, whatever was there: the report holds the kernel
 * log and the machine's layout, and is kept in /run after switch_root. */
static FILE *report_open(void)
{
	int fd;
	FILE *f;

	if (unlink(RESCUE_REPORT_PATH) < 0 && errno != ENOENT)
		return NULL;
	fd = open(RESCUE_REPORT_PATH, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

int rescue_report_write(const char *what)
{
	FILE *out;
	int r = 0;

	if (mkdir("/run/initramfs", 0755) < 0 && errno != EEXIST)
		return -errno;
	out = report_open();
	if (!out)
		return -errno;
	write_sections(out, what);
	if (ferror(out))
		r = -EIO;
	if (fclose(out) != 0 && r == 0)
		r = -errno;
	return r;
}
