/* test-init: the /sbin/init of the test root disks. It reports what the boot
 * tests assert on (a marker, the root mount, the lifeboat timeline, its own
 * arguments, the device-mapper devices) on the console, then powers the
 * machine off, or with lifeboat.test.handback=VERB hands it back to the
 * initramfs's way out as systemd does, with =script:VERB as a sysvinit's
 * last script does (tests/boot/guest-handback.h).
 * Static, so the test roots need no libraries. */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/boot/guest-cmdline.h"
#include "tests/boot/guest-handback.h"
#include "tests/boot/guest-report.h"

/* The secret of lifeboat.test.nosecret=HEX (hex, so the kernel's echo of
 * its command line does not hold it), and what the scan found. */
static char secret[256];
static int scanned, leaks;

static void secret_decode(void)
{
	char hex[2 * sizeof(secret)];
	size_t n = strlen(param("lifeboat.test.nosecret", hex, sizeof(hex))) / 2;

	for (size_t i = 0; i < n && i + 1 < sizeof(secret); i++) {
		unsigned int byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			break;
		secret[i] = (char)byte;
	}
}

static void secret_look(const char *where, const char *buf, size_t len)
{
	if (memmem(buf, len, secret, strlen(secret))) {
		printf("LIFEBOAT-TEST: secret found in %s\n", where);
		leaks++;
	}
}

static int secret_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char buf[65536];
	FILE *f;
	size_t n;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || !(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	scanned++;
	secret_look(path, buf, n);
	return 0;
}

/* The kernel log, every file under /run and init's environment: the
 * initramfs's traces that outlive it. */
static void secret_scan(void)
{
	static char log[1 << 20];
	int n;

	secret_decode();
	if (!secret[0])
		return;
	n = klogctl(3, log, sizeof(log));   /* SYSLOG_ACTION_READ_ALL */
	if (n < 0)
		printf("LIFEBOAT-TEST: secrets: the kernel log is unreadable\n");
	else
		secret_look("the kernel log", log, (size_t)n);
	nftw("/run", secret_file, 16, FTW_PHYS | FTW_MOUNT);
	/* What the initramfs's init handed on to this one. */
	secret_file("/proc/self/environ", &(struct stat){ .st_mode = S_IFREG }, FTW_F, NULL);
	if (!leaks && n >= 0)
		printf("LIFEBOAT-TEST: secrets: none in the kernel log, the environment and %d "
		       "files under /run\n", scanned - 1);
}

static void print_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		printf("LIFEBOAT-TEST: mode %s %o\n", path, st.st_mode & 07777);
}

static void print_file(const char *tag, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("LIFEBOAT-TEST: %s missing %s\n", tag, path);
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("LIFEBOAT-TEST: %s %s", tag, line);
	fclose(f);
}

/* The TCP ports something listens on (/proc/net/tcp and tcp6, state 0A):
 * nothing of the initramfs (its SSH server) may be left listening. */
static void print_listening(void)
{
	static const char *const tables[] = { "/proc/net/tcp", "/proc/net/tcp6" };

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		char line[512];
		FILE *f = fopen(tables[t], "r");

		while (f && fgets(line, sizeof(line), f)) {
			char local[128], remote[128], state[8];
			const char *colon;

			if (sscanf(line, "%*s %127s %127s %7s", local, remote, state) != 3 ||
			    strcmp(state, "0A") != 0 || !(colon = strrchr(local, ':')))
				continue;
			printf("LIFEBOAT-TEST: tcp-listen %lu\n", strtoul(colon + 1, NULL, 16));
		}
		if (f)
			fclose(f);
	}
	printf("LIFEBOAT-TEST: tcp-listen checked\n");
}

/* A /usr of its own (tests/boot/cases-usr.sh): what is mounted there. */
static void print_usr_mount(void)
{
	char line[512];
	FILE *f = fopen("/proc/mounts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char dev[128], dir[128], type[32], opts[256];

		if (sscanf(line, "%127s %127s %31s %255s", dev, dir, type, opts) == 4 &&
		    strcmp(dir, "/usr") == 0)
			printf("LIFEBOAT-TEST: usrmount %s %s %s\n", dev, type, opts);
	}
	if (f)
		fclose(f);
}

/* lifeboat.test.pathloss=1 (tests/boot/cases-mpath.sh): wait until one
 * SCSI path of the multipath root is left (the case pulls the other out),
 * then write a block to the root, sync it, and read it back past the page
 * cache: the map must have failed over to the path left. */
/* A path pulled out is gone from /sys/block; an iSCSI path whose portal
 * went away stays, its SCSI device no longer "running" (blocked while the
 * session recovers, then transport-offline). */
static int sd_paths(void)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], state[32] = "";
		FILE *f;

		if (strncmp(e->d_name, "sd", 2) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/device/state", e->d_name);
		f = fopen(path, "re");
		if (f && fgets(state, sizeof(state), f))
			n += strncmp(state, "running", 7) == 0;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static void pathloss_check(void)
{
	static const char path[] = "/pathloss-check";
	char *buf = NULL, *back = NULL;
	int waited = 0, fd, ok = 0;

	while (sd_paths() > 1 && waited < 600) {
		usleep(100000);
		waited++;
	}
	printf("LIFEBOAT-TEST: pathloss %d paths left after %d ms\n", sd_paths(), waited * 100);
	if (posix_memalign((void **)&buf, 4096, 4096) || posix_memalign((void **)&back, 4096, 4096))
		return;
	memset(buf, 0x5a, 4096);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && write(fd, buf, 4096) == 4096 && fsync(fd) == 0)
		ok = 1;
	if (fd >= 0)
		close(fd);
	fd = ok ? open(path, O_RDONLY | O_DIRECT) : -1;
	ok = fd >= 0 && read(fd, back, 4096) == 4096 && memcmp(buf, back, 4096) == 0;
	if (fd >= 0)
		close(fd);
	printf("LIFEBOAT-TEST: pathloss io %s\n", ok ? "ok" : "failed");
	free(buf);
	free(back);
}

int main(int argc, char **argv)
{
	char verb[32], show_path[256];

	printf("LIFEBOAT-TEST: root reached\n");
	for (int i = 0; i < argc; i++)
		printf("LIFEBOAT-TEST: argv[%d] %s\n", i, argv[i]);
	print_root_mount();
	print_usr_mount();
	print_dm_devices();
	print_file("uptime", "/proc/uptime");
	print_file("timeline", "/run/initramfs/timeline");
	if (access("/run/initramfs/net.eth0.conf", F_OK) == 0) {
		print_file("netconf", "/run/initramfs/net.eth0.conf");
		print_mode("/run/initramfs/net.eth0.conf");
	}
	if (access("/last-write", F_OK) == 0)
		print_file("lastwrite", "/last-write");
	if (access("/proc/mdstat", F_OK) == 0)
		print_file("mdstat", "/proc/mdstat");
	cmdline_read();
	/* lifeboat.test.show=PATH: a fact of the booted system a case asserts
	 * (a module's parameter under /sys/module). */
	if (param("lifeboat.test.show", show_path, sizeof(show_path))[0])
		print_file("show", show_path);
	if (param("lifeboat.test.pathloss", show_path, sizeof(show_path))[0])
		pathloss_check();
	print_listening();
	secret_scan();
	printf("LIFEBOAT-TEST: end\n");
	fflush(stdout);
	if (access("/run/initramfs/last-shutdown.txt", F_OK) == 0)
		print_file("lastshutdown", "/run/initramfs/last-shutdown.txt");
	/* reboot-once: the next boot of the same machine finds the last
	 * write and powers off (shutdown_report_next_boot). */
	if (strncmp(param("lifeboat.test.handback", verb, sizeof(verb)), "script:", 7) == 0)
		handback_script(verb + 7);
	else if (strcmp(verb, "reboot-once") == 0 && access("/last-write", F_OK) < 0)
		handback("reboot");
	else if (verb[0] && strcmp(verb, "reboot-once") != 0)
		handback(verb);
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
