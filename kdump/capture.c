/* capture: the capture kernel's work: read the crashed kernel's memory from
 * /proc/vmcore, try each target in the configured order until one saves the
 * dump, then reboot (or the configured action). */
#include "kdump/capture.h"

#include "common/fileread.h"
#include "kdump/kdump.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#include "blockstack/blockstack.h"
#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/patience.h"
#include "bootlib/shell.h"
#include "kdump/elfdump.h"
#include "kdump/kvmem.h"
#include "kdump/threadsize.h"
#include "net/net.h"

#define VMCORE "/proc/vmcore"
#define UTS_LEN 65

/* Targets by the start of their spec; a spec that matches none is a filesystem. */
static const struct target_kind {
	const char *prefix;
	target_save_fn save;
} target_kinds[] = {
	{ "http://", target_url_save },
	{ "https://", target_url_save },
	{ "ftp://", target_url_save },
	{ "sftp://", target_url_save },
	{ "nfs:", target_nfs_save },
	{ "nfs4:", target_nfs_save },
	{ "", target_disk_save },
};

static target_save_fn target_find(const char *spec)
{
	for (size_t i = 0; i < sizeof(target_kinds) / sizeof(target_kinds[0]); i++)
		if (strncmp(spec, target_kinds[i].prefix, strlen(target_kinds[i].prefix)) == 0)
			return target_kinds[i].save;
	return target_disk_save;
}

int capture_network_up(struct capture *cap)
{
	static int state = 1;     /* 1: not tried yet */

	if (state == 1) {
		char why[400];

		state = net_bring_up(cap->net, why, sizeof(why));
		if (state < 0)
			log_error("kdump: the network did not come up: %s", why);
	}
	return state;
}

struct progress {
	unsigned last;
};

static void progress_print(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	unsigned pct = total ? (unsigned)(done * 100 / total) : 100;

	if (pct / 10 == p->last / 10 && pct != 100)
		return;
	p->last = pct;
	log_console("kdump: saving memory: %3u%%\n", pct);
}

/* A compressing thread per CPU beyond the first (nr_cpus=N on the capture
 * kernel's command line), as many as a quarter of the capture kernel's
 * free memory holds (kdump/threadsize.h): the writer reads, writes and
 * compresses what no thread has started (kdump/pagepool.h); with one CPU
 * it does it all, as a thread would only take turns with it. */
static unsigned compress_threads(enum kdump_compress which)
{
	char meminfo[8192];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t avail = 0, per_thread;
	unsigned n;

	if (file_read_text("/proc/meminfo", 0, meminfo, sizeof(meminfo)) >= 0)
		avail = threadsize_mem_available(meminfo);
	per_thread = threadsize_per_thread(pagecomp_get(which), page > 0 ? (size_t)page : 4096);
	n = threadsize_pick(avail, cpus > 0 ? (unsigned)cpus : 1, per_thread);
	if (n < threadsize_pick(UINT64_MAX, cpus > 0 ? (unsigned)cpus : 1, per_thread))
		log_console("kdump: %u of %ld CPUs compress: %llu MiB free holds no more threads of %llu KiB\n",
			    n + 1, cpus, (unsigned long long)(avail >> 20),
			    (unsigned long long)(per_thread >> 10));
	return n;
}

int capture_write_kdump(struct capture *cap, struct dump_sink *sink, struct diskdump_stats *stats)
{
	struct progress prog = { 0 };
	struct diskdump_opts opts = { .dump_level = cap->conf.level, .nodename = cap->host,
				      .compress = cap->conf.compress, .threads = compress_threads(cap->conf.compress),
				      .progress = progress_print, .progress_ctx = &prog };
	int r = diskdump_write(&cap->core, cap->have_vi ? &cap->vi : NULL, sink, &opts, stats);

	if (stats->fallback_why[0])
		log_warn("kdump: %s pages were asked for, but %s; the pages are compressed with zlib "
			 "instead (rebuild the image with --kdump-options compress=%s to carry %s)",
			 kdump_conf_compress_name(cap->conf.compress), stats->fallback_why,
			 kdump_conf_compress_name(cap->conf.compress),
			 cap->conf.compress == COMPRESS_ZSTD ? KDUMP_LIBZSTD : KDUMP_LIBLZO);
	log_console("kdump: pages compressed with %s by %u thread(s)\n",
		    pagecomp_flag_name(stats->compress_flag), stats->threads + 1);
	return r;
}

int capture_write_elf(struct capture *cap, int fd)
{
	struct progress prog = { 0 };
	struct elfdump_opts opts = { .dump_level = cap->conf.level, .progress = progress_print,
				     .progress_ctx = &prog };
	struct elfdump_stats stats;

	return elfdump_write(&cap->core, cap->have_vi ? &cap->vi : NULL, fd, &opts, &stats);
}

static int conf_load(struct kdump_conf *conf)
{
	char text[KDUMP_CONF_MAX];
	int bad = 0;

	kdump_conf_init(conf);
	if (file_read_text(KDUMP_CONF_PATH, 0, text, sizeof(text)) < 0) {
		log_error("kdump: this image has no %s: it was not built for capture; build one with "
			  "lifeboat build --kdump --kdump-target ...", KDUMP_CONF_PATH);
		return -ENOENT;
	}
	if (kdump_conf_parse(text, conf, &bad) < 0) {
		log_error("kdump: %s line %d is not understood; rebuild the image", KDUMP_CONF_PATH, bad);
		return -EINVAL;
	}
	if (conf->ntargets == 0) {
		log_error("kdump: %s names no target; rebuild with --kdump-target", KDUMP_CONF_PATH);
		return -EINVAL;
	}
	return 0;
}

/* The crashed kernel's node name, for the dump's directory name. */
static void host_name(struct capture *cap)
{
	struct kvmem kv;
	char name[UTS_LEN] = "";

	strcpy(cap->host, "localhost");
	if (!cap->have_vi || cap->vi.init_uts_ns == VI_UNSET || cap->vi.off_uts_name == VI_UNSET ||
	    kvmem_init(&kv, &cap->core, &cap->vi) < 0 ||
	    kvmem_read(&kv, (uint64_t)cap->vi.init_uts_ns + (uint64_t)cap->vi.off_uts_name + UTS_LEN,
		       name, sizeof(name)) < 0)
		return;
	name[UTS_LEN - 1] = '\0';
	/* The name becomes a directory name: keep it to safe characters. */
	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '.' || *p == '_'))
			*p = '_';
	if (name[0] && strcmp(name, "_none_") != 0)
		strcpy(cap->host, name);
}

static int capture_open(struct capture *cap)
{
	int fd = open(VMCORE, O_RDONLY | O_CLOEXEC);
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int r;

	if (fd < 0)
		return -errno;
	r = elfcore_open(&cap->core, fd);
	if (r < 0) {
		close(fd);
		return r;
	}
	cap->have_vi = cap->core.vmcoreinfo &&
		       vmcoreinfo_parse(cap->core.vmcoreinfo, cap->core.vmcoreinfo_size, &cap->vi) == 0;
	if (!cap->have_vi)
		log_warn("kdump: %s has no usable VMCOREINFO note; only zero pages can be left out, "
			 "and no kernel log is extracted", VMCORE);
	capture_trust_core(cap);
	host_name(cap);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(cap->name, sizeof(cap->name), "%s-%s", cap->host, stamp);
	capture_read_dmesg(cap);
	r = diskdump_bound(&cap->core, cap->have_vi ? &cap->vi : NULL, cap->conf.level, &cap->bound);
	if (r == 0 && (cap->conf.formats & FORMAT_ELF))
		r = elfdump_bound(&cap->core, cap->have_vi ? &cap->vi : NULL, cap->conf.level, &cap->elf_bound);
	return r;
}

/* A shell through the one gate (bootlib/shell.h), which applies rd.shell=0
 * and --rescue-auth's password here as on every other path. cause says
 * whether it follows a failure or the configured action. */
static void offer_shell(const struct rescue_args *args, enum kdump_action action,
			enum shell_cause cause)
{
	const struct shell_request req = {
		.cause = cause,
		.announce = "kdump: starting a shell; the machine reboots when it exits\n",
	};
	int r = shell_enter(args, &req);

	if (r == -ENOENT && action == ACTION_SHELL)
		log_error("kdump: action=shell, but this image has no shell; rebuild it with "
			  "--rescue busybox");
	else if (r == -EPERM)
		log_console("kdump: rd.shell=0: no shell\n");
	else if (r == -EACCES)
		log_console("kdump: the root password was refused: no shell\n");
}

/* action, or failure_action after a failure (cause SHELL_FOR_FAILURE);
 * the default is a shell when the image has one, then a reboot. */
static void __attribute__((noreturn)) take_action(const struct rescue_args *args,
						  enum kdump_action action, enum shell_cause cause)
{
	if (action == ACTION_DEFAULT || action == ACTION_SHELL)
		offer_shell(args, action, cause);
	sync();
	log_console("kdump: %s\n", action == ACTION_POWEROFF ? "powering off" : "rebooting");
	reboot(action == ACTION_POWEROFF ? RB_POWER_OFF : RB_AUTOBOOT);
	for (;;)
		pause();
}

/* The init's peak resident memory (VmHWM), in KiB; 0 if unknown. */
static unsigned long peak_kib(void)
{
	char line[128];
	unsigned long kib = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %lu", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A dump server that does not answer yet (the capture kernel boots faster
 * than the server after a power cut) is tried again for this long before
 * the next target; a disk target is not. */
#define SERVER_WAIT_SEC 30

static bool server_not_there_yet(const struct kdump_target *t, int r)
{
	return target_find(t->where) != target_disk_save &&
	       (r == -ECONNREFUSED || r == -ETIMEDOUT || r == -EHOSTUNREACH || r == -ENETUNREACH ||
		r == -EHOSTDOWN);
}

static int save_to(struct capture *cap, const struct kdump_target *t)
{
	struct patience wait;
	int r;

	patience_start(&wait, t->where, clock_deadline(clock_now_ms(), SERVER_WAIT_SEC));
	do
		r = target_find(t->where)(cap, t);
	while (server_not_there_yet(t, r) && patience_wait(&wait, strerror(-r)));
	return r;
}

static int save_anywhere(struct capture *cap)
{
	for (int i = 0; i < cap->conf.ntargets; i++) {
		const struct kdump_target *t = &cap->conf.targets[i];

		log_console("kdump: saving the dump to target %d of %d: %s\n", i + 1,
			    cap->conf.ntargets, t->where);
		if (save_to(cap, t) == 0)
			return 0;
	}
	return -EIO;
}

/* A dump disk may be in LUKS: it is opened as the root's containers are
 * (blockstack/), but nobody is there to type: a prompt gives up after
 * KDUMP_PROMPT_SEC and the target is then skipped. A Tang binding needs
 * the network before the disk targets are waited for. */
static void unlock_unattended(struct capture *cap, bool tang)
{
	blockstack_unattended(KDUMP_PROMPT_SEC);
	if (tang && capture_network_up(cap) < 0)
		log_warn("kdump: without the network, dump disks bound to a Tang server stay "
			 "locked unless their TPM2 token or key file opens them");
}

bool kdump_capture_needed(void)
{
	return access(VMCORE, R_OK) == 0;
}

void kdump_capture(const struct net_args *net, const struct rescue_args *rescue, bool tang)
{
	static struct capture cap;
	struct timespec t0;
	int r;

	cap.net = net;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	log_console("kdump: this is a capture kernel after a crash; saving the crashed kernel's memory\n");
	if (conf_load(&cap.conf) < 0)
		take_action(rescue, ACTION_DEFAULT, SHELL_FOR_FAILURE);
	r = capture_open(&cap);
	if (r < 0) {
		log_error("kdump: reading %s failed: %s; the crashed kernel's memory cannot be saved",
			  VMCORE, strerror(-r));
		take_action(rescue, cap.conf.failure_action, SHELL_FOR_FAILURE);
	}
	unlock_unattended(&cap, tang);
	if (save_anywhere(&cap) < 0) {
		log_error("kdump: no target could save the dump (see the messages above); the "
			  "memory is lost after this");
		take_action(rescue, cap.conf.failure_action, SHELL_FOR_FAILURE);
	}
	log_console("kdump: dump saved as %s in %.1f s; peak memory of the capture %lu KiB\n",
		    cap.name, seconds_since(&t0), peak_kib());
	take_action(rescue, cap.conf.action, SHELL_FOR_ACTION);
}
