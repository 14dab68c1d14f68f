/* hib-init: the /sbin/init of the hibernation test roots. With
 * lbtest.hibernate=N on the command line it turns on the swap named by
 * lbtest.swap=, records lbtest.token= in /state.txt and hibernates N times,
 * printing the token before each hibernation and again after each resume;
 * without it, it reports like test-init. Either way it ends by printing the
 * timeline and /state.txt, remounting the root read-only and powering off.
 * Static, so the test roots need no libraries. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/swap.h>
#include <unistd.h>

#include "tests/boot/guest-cmdline.h"

#define STATE "/state.txt"

static int write_file(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | flags, 0644);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0 && errno != EINVAL)
		r = -errno;
	close(fd);
	return r;
}

/* One line "WHAT TOKEN [N]" appended to /state.txt and flushed to disk. */
static void state_append(const char *what, const char *token, int i)
{
	char line[256];
	int r;

	if (i)
		snprintf(line, sizeof(line), "%s %s %d\n", what, token, i);
	else
		snprintf(line, sizeof(line), "%s %s\n", what, token);
	r = write_file(STATE, line, O_CREAT | O_APPEND);
	if (r < 0)
		printf("HIB-TEST: writing %s failed: %s\n", STATE, strerror(-r));
}

static void print_file(const char *tag, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		printf("%s %s", tag, line);
	if (f)
		fclose(f);
}

static void hibernate(const char *token, int count)
{
	char swap[256];

	param("lbtest.swap", swap, sizeof(swap));
	/* The disk may still be probing when the root's init starts. */
	for (int tries = 0; access(swap, F_OK) < 0 && tries < 100; tries++)
		usleep(100000);
	if (swapon(swap, 0) < 0) {
		printf("HIB-TEST: swapon %s failed: %s\n", swap, strerror(errno));
		return;
	}
	state_append("before-hibernate", token, 0);
	sync();
	for (int i = 1; i <= count; i++) {
		int r;

		write_file("/sys/power/disk", "shutdown", 0);
		printf("HIB-TEST: HIBERNATING %d %s\n", i, token);
		fflush(stdout);
		r = write_file("/sys/power/state", "disk", 0);
		/* Here after a resume (r == 0) or a failed hibernation. */
		printf("HIB-TEST: RESUMED %d %s rc=%d\n", i, token, r);
		state_append("after-resume", token, i);
	}
	if (swapoff(swap) < 0)
		printf("HIB-TEST: swapoff %s failed: %s\n", swap, strerror(errno));
}

int main(void)
{
	char token[64], count[16];

	cmdline_read();
	printf("LIFEBOAT-TEST: root reached\n");
	param("lbtest.token", token, sizeof(token));
	if (atoi(param("lbtest.hibernate", count, sizeof(count))) > 0)
		hibernate(token, atoi(count));
	print_file("LIFEBOAT-TEST: timeline", "/run/initramfs/timeline");
	print_file("HIB-TEST: state", STATE);
	sync();
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0)
		printf("HIB-TEST: remounting / read-only failed: %s\n", strerror(errno));
	printf("LIFEBOAT-TEST: end\n");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 1;
}
