/* procsweep: nothing of the initramfs runs on under the real root.
 *
 * Following the processes an SSH session or a rescue shell started by
 * their parents misses every one that left its parent (setsid and a
 * double fork: nohup, any daemon); it is then the init's child, like
 * every orphan. So PID 1 ends them all, whatever started them: at this
 * point the boot has no process of its own left but the module load it
 * waits for, and nothing of the initramfs may go on under the real root
 * (it would hold the initramfs' files and listen on its ports). */
#include "bootlib/procsweep.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/procstat.h"
#include "common/fileread.h"

/* A process in the kernel (a hung NFS read, say) ends when it comes
 * back: this long at most, in 10 ms steps, then the boot goes on. */
#define SWEEP_STEPS 200

/* systemd's convention for a storage daemon the real root takes over
 * (mdmon --offroot, multipathd, plymouthd): argv[0] begins with '@'. It
 * must live on, or the root's device stops answering. */
static bool stays_for_the_root(pid_t pid)
{
	char path[64], first[2];

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	return file_read_line(path, first, sizeof(first)) == 0 && first[0] == '@';
}

/* Kill every process of /proc but self, the kernel's threads and the
 * storage daemons marked to stay, counted in killed when not NULL.
 * Returns how many are left (zombies included: they end once reaped), or
 * -errno. */
static int kill_round(pid_t self, int *killed)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	int left = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		struct procstat st;

		if (!procstat_is_pid_name(de->d_name) || procstat_read("/proc", de->d_name, &st) < 0 ||
		    st.pid == self || procstat_is_kernel_thread(&st) ||
		    stays_for_the_root(st.pid))
			continue;
		left++;
		if (st.state != 'Z' && kill(st.pid, SIGKILL) == 0 && killed)
			(*killed)++;
	}
	closedir(dir);
	return left;
}

int procsweep_all(char *why, size_t why_size)
{
	pid_t self = getpid();
	char name[128];
	int killed = 0, left = 0;

	/* The one child the init still waits for: its load finishes. */
	modload_background_join(name, sizeof(name));
	for (int step = 0; step < SWEEP_STEPS; step++) {
		left = kill_round(self, step == 0 ? &killed : NULL);
		/* The killed become the init's children as their parents go. */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (left <= 0)
			break;
		usleep(10 * 1000);
	}
	if (left < 0) {
		snprintf(why, why_size, "reading /proc to end what the rescue left failed: %s; "
			 "its processes may go on under the real root", strerror(-left));
		return left;
	}
	if (left > 0) {
		snprintf(why, why_size, "%d processes of the initramfs did not end within %d s "
			 "(stuck in the kernel); they go on under the real root", left,
			 SWEEP_STEPS / 100);
		return -EBUSY;
	}
	if (killed > 0)
		log_info("ended %d process%s the rescue or SSH sessions left", killed,
			 killed == 1 ? "" : "es");
	return killed;
}
