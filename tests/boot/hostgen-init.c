/* hostgen-init: the /sbin/init of the stacked test root that runs the
 * host-only generator inside the guest (tests/boot/cases-stacks.sh): the
 * build host's root is on no stack, so a host-only image for a stack can
 * only be made on a machine whose root is on one.
 *
 * With lbtest.hostgen=1 on the command line it mounts the host's /usr
 * (9p tag "hostusr", read-only: the root tree's bin, sbin, lib and lib64
 * are symlinks into usr, as in a merged-/usr Debian) and the case
 * directory (9p tag "share", on /out, holding lifeboat and lifeboat-init),
 * runs "lifeboat build --host-only" writing /out/hostonly.img, and prints
 * its exit status; with lbtest.swap=PATH too, it first turns that swap on
 * (the host's resume device, whose stack the image must carry). A case's
 * own /etc/crypttab or /etc/mdadm/mdadm.conf, put in the share under etc/,
 * is bind-mounted over the root's (which list nothing). Without
 * lbtest.hostgen=1, it only reports the root like test-init.
 * Either way it powers off. Static, so the root needs no libraries. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/swap.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/boot/guest-cmdline.h"
#include "tests/boot/guest-report.h"

static int mount_one(const char *src, const char *dir, const char *type,
		     unsigned long flags, const char *opts)
{
	if (mount(src, dir, type, flags, opts) == 0 || errno == EBUSY)
		return 0;
	printf("HOSTGEN: mounting %s (%s) on %s failed: %s\n", src, type, dir, strerror(errno));
	return -1;
}

/* Run the generator with the console as its output; its exit status. */
static int generate(void)
{
	struct utsname u;
	char *argv[] = { "/out/lifeboat", "build", "-v", "--host-only", "--config", "/dev/null",
			 "--kver", u.release, "-o", "/out/hostonly.img", NULL };
	char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/", NULL };
	int status;
	pid_t pid;

	uname(&u);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, envp);
		printf("HOSTGEN: running %s failed: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void swap_on(void)
{
	char swap[256];

	if (!param("lbtest.swap", swap, sizeof(swap))[0])
		return;
	if (swapon(swap, 0) < 0)
		printf("HOSTGEN: swapon %s failed: %s\n", swap, strerror(errno));
	else
		printf("HOSTGEN: swap on %s\n", swap);
}

/* The stacks' configuration files the case gave in the share. */
static void host_config(void)
{
	static const char *const files[] = { "/etc/crypttab", "/etc/mdadm/mdadm.conf" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char src[64];

		snprintf(src, sizeof(src), "/out%s", files[i]);
		if (access(src, F_OK) < 0)
			continue;
		if (mount(src, files[i], NULL, MS_BIND, NULL) < 0)
			printf("HOSTGEN: bind-mounting %s over %s failed: %s\n", src, files[i],
			       strerror(errno));
		else
			printf("HOSTGEN: %s from the share\n", files[i]);
	}
}

/* The host's resume device on, its /usr and the share mounted: generate. */
static void host_only_build(void)
{
	swap_on();
	if (mount_one("hostusr", "/usr", "9p", MS_RDONLY,
		      "trans=virtio,version=9p2000.L,msize=262144,cache=loose") < 0 ||
	    mount_one("share", "/out", "9p", 0, "trans=virtio,version=9p2000.L,msize=262144") < 0)
		return;
	host_config();
	printf("HOSTGEN: exit %d\n", generate());
}

int main(void)
{
	char hostgen[8];

	/* lifeboat moves its /proc, /sys, /dev and /run here; mount what is
	 * missing (another initramfs may not). */
	if (access("/proc/self", F_OK) < 0)
		mount_one("proc", "/proc", "proc", 0, NULL);
	if (access("/sys/kernel", F_OK) < 0)
		mount_one("sysfs", "/sys", "sysfs", 0, NULL);
	if (access("/dev/null", F_OK) < 0)
		mount_one("dev", "/dev", "devtmpfs", 0, NULL);
	mount_one("tmp", "/tmp", "tmpfs", 0, NULL);
	cmdline_read();
	printf("LIFEBOAT-TEST: root reached\n");
	print_root_mount();
	print_dm_devices();
	if (strcmp(param("lbtest.hostgen", hostgen, sizeof(hostgen)), "1") == 0)
		host_only_build();
	sync();
	umount("/out");
	printf("LIFEBOAT-TEST: end\n");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 1;
}
