/* lifeboat-init: PID 1 of the initramfs. main() reads as the boot does. */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/blockstack.h"
#include "blockstack/luksname.h"
#include "blockstack/udevdb.h"
#include "bootlib/clock.h"
#include "bootlib/cmdline.h"
#include "bootlib/devwait.h"
#include "bootlib/hookrun.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/procsweep.h"
#include "bootlib/splash.h"
#include "bootlib/stage.h"
#include "bootlib/sysroot.h"
#include "bootlib/timeline.h"
#include "bootlib/vconsole.h"
#include "bootlib/vfont.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "common/modtab.h"
#include "common/redact.h"
#include "fsck/fsck.h"
#include "init/bootargs.h"
#include "init/early.h"
#include "init/failure.h"
#include "init/mountroot.h"
#include "init/multicall.h"
#include "init/boot_plan.h"
#include "init/switchroot.h"
#include "init/usrmount.h"
#include "kdump/kdump.h"
#include "net/iscsi.h"
#include "net/nvmf.h"
#include "net/liveroot.h"
#include "net/net.h"
#include "remote/remote.h"
#include "rescue/rescue.h"
#include "resume/resume.h"
#include "shutdown/lastreport.h"
#include "shutdown/leave.h"

#define DEFAULT_INIT "/sbin/init"
/* After the rescue shell the devices are usually there already (the person
 * added or fixed them): a retry waits this long, not rd.timeout again. */
#define RETRY_TIMEOUT_SEC 10

/* Every step that can fail returns 0 or -errno and says in a why buffer
 * what failed, on which device or file, and what the user can do; the
 * flow hands that text to rescue/ once. */
#define WHY_MAX 512

static int failed(char *why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int failed(char *why, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, WHY_MAX, fmt, ap);
	va_end(ap);
	return err;
}

static void load_driver_list(const struct strv *names, const char *param)
{
	for (size_t i = 0; i < names->len; i++)
		if (modload_name(names->items[i]) < 0)
			log_warn("%s=%s: the module could not be loaded; check its name "
				 "and that the image has it (lifeboat ls)", param, names->items[i]);
}

static void setup_drivers(const struct driver_args *drivers)
{
	int r = modload_open(MODTAB_PATH);

	if (r < 0)
		log_error("reading the module table %s failed (%s); no driver will be "
			  "loaded: rebuild the image", MODTAB_PATH, strerror(-r));
	if (modload_set_params(&drivers->params) < 0)
		log_warn("out of memory: the modules' MODULE.PARAM= words of the command "
			 "line are not passed to them");
	for (size_t i = 0; i < drivers->blacklist.len; i++)
		modload_blacklist(drivers->blacklist.items[i]);
	load_driver_list(&drivers->pre, "rd.driver.pre");
}

/* The network is up: an image built with --ssh opens its SSH server
 * (remote/), for unlocking and for the rescue; a failure to start it is
 * reported and the boot goes on. */
static void network_is_up(const struct boot_args *args)
{
	char text[WHY_MAX];

	if (remote_start(&args->remote, &args->rescue, text, sizeof(text)) < 0)
		log_warn("SSH server: %s; the boot goes on without it", text);
}

/* The keyboard layout and the console font, before anything can prompt:
 * a passphrase typed in another layout than the one it was set in is the
 * most common lockout. A console without virtual terminals (serial) is
 * said once, not warned about. */
static void report_vconsole(int r, const char *why)
{
	if (r == -ENOTTY || r == 0)
		log_info("%s", why);
	else
		log_warn("%s", why);
}

static void setup_vconsole(const struct vconsole_args *vconsole)
{
	char why[WHY_MAX];
	int r;

	if (vconsole->font[0])
		report_vconsole(vfont_load(vconsole->font, why, sizeof(why)), why);
	if (!vconsole->keymap[0])
		return;
	r = vconsole_keymap_load(vconsole->keymap, why, sizeof(why));
	if (r == 0)
		snprintf(why, sizeof(why), "keyboard layout %s loaded", vconsole->keymap);
	report_vconsole(r, why);
}

/* A stage of the boot is reached: rd.break's stop, then the image's boot
 * scripts of the stage (docs/extending.md), in dracut's order: one that
 * fails or hangs goes to the rescue, and leaving the shell goes on with
 * the next. */
/* What the scripts are told of the root beyond root=: its kind (set once
 * the plan is made) and its device (once found). */
static const char *root_kind_told = "disk";
static char root_device_told[80];

static void reach_stage(const struct boot_args *args, enum boot_stage stage)
{
	const struct hookrun_boot boot = { .args = &args->hooks, .root = args->root.root,
					   .root_kind = root_kind_told,
					   .root_device = root_device_told };
	char why[WHY_MAX];
	size_t next = 0;

	rescue_break(&args->rescue, stage);
	while (hookrun_stage(stage, &boot, &next, why, sizeof(why)) < 0)
		rescue_failure(&args->rescue, why);
}

/* The network root: net/ configures the network and mounts NFS on /sysroot. */
static int mount_nfs_root(const struct boot_args *args, const struct boot_plan *plan, char *why)
{
	char text[WHY_MAX - 16];
	int r = net_root_mount(&plan->net, text, sizeof(text));

	/* The network may be up even when the mount failed: the rescue is
	 * then reachable too. */
	network_is_up(args);
	return r < 0 ? failed(why, r, "network root: %s", text) : 0;
}

/* root=live:URL: net/ brings the network up, fetches the image into RAM,
 * checks it and mounts it under a tmpfs overlay on /sysroot. */
static int mount_live_root(const struct boot_args *args, const struct boot_plan *plan, char *why)
{
	char text[WHY_MAX - 16];
	int r = liveroot_mount(&plan->net, &args->live, text, sizeof(text));

	network_is_up(args);
	return r < 0 ? failed(why, r, "live root: %s", text) : 0;
}

/* A root path's iscsi:USER:SECRET@ is no longer needed once the login is
 * done (the kernel keeps the session): PID 1 drops it, as net/ drops
 * rd.iscsi.password. What is left still names the same target for a retry. */
static void forget_path_credentials(char *path, size_t size)
{
	char stripped[CMDLINE_VALUE_MAX];

	if (redact_path_strip(path, stripped, sizeof(stripped))) {
		explicit_bzero(path, size);
		snprintf(path, size, "%s", stripped);
	}
	explicit_bzero(stripped, sizeof(stripped));
}

/* rd.neednet's network, also Tang's: 1 until it is tried, then
 * net_bring_up's result. Tang's comes up before the resume decision
 * (tried_early); the root's first pass then takes that result, and a
 * failure is tried again at the next pass (after the rescue shell). */
static int disk_net = 1;
static bool tried_early;

static void disk_network_up(const struct boot_plan *plan)
{
	char text[WHY_MAX - 16];

	if (disk_net == 0)
		return;
	disk_net = net_bring_up(plan->net.net, text, sizeof(text));
	if (disk_net < 0)
		log_warn("%s: %s; %s", plan->tang ? "the network for Tang" : "rd.neednet", text,
			 plan->tang ? "the clevis tang bindings will fail and the passphrase be asked"
				    : "the real root starts without the network");
}

/* The network part of a disk root: an iSCSI login, whose LUN then appears
 * as a local disk, or rd.neednet's setup (a failure is reported and the
 * boot goes on). root gets what names the root device (the LUN's disk
 * when root= names no filesystem). */
static int attach_network_disk(struct boot_args *args, const struct boot_plan *plan,
			       char *root, size_t size, char *why)
{
	if (plan->root_kind == ROOT_KIND_ISCSI) {
		char text[WHY_MAX - 16];
		int r = iscsi_root_attach(&plan->net, root, size, text, sizeof(text));

		network_is_up(args);
		if (r < 0)
			return failed(why, r, "iSCSI root: %s", text);
		forget_path_credentials(args->root.root, sizeof(args->root.root));
		forget_path_credentials(args->net.netroot, sizeof(args->net.netroot));
		return 0;
	}
	snprintf(root, size, "%s", args->root.root);
	/* NVMe over TCP: connected, its namespaces appear as local disks. */
	if (nvmf_root_wanted(&args->nvmf)) {
		char text[WHY_MAX - 16];
		int r = nvmf_root_attach(&args->nvmf, &args->net, args->root.timeout_sec, text,
					 sizeof(text));

		network_is_up(args);
		return r < 0 ? failed(why, r, "NVMe/TCP root: %s", text) : 0;
	}
	if (!plan->neednet)
		return 0;
	if (!tried_early)
		disk_network_up(plan);
	tried_early = false;
	/* The SSH server only now, after the resume decision: a remote
	 * shell must not reach the disks before it. */
	if (disk_net == 0)
		network_is_up(args);
	return 0;
}

/* Find the root device, check it and mount it on /sysroot. */
static int mount_disk_root(struct boot_args *args, const struct boot_plan *plan, char *why)
{
	struct dev_spec spec;
	struct found_dev dev;
	char root[CMDLINE_VALUE_MAX];
	const char *type;
	/* An iSCSI or NVMe/TCP root's network and login count in its rd.timeout=. */
	uint64_t deadline = clock_deadline(clock_now_ms(), args->root.timeout_sec);
	int r = attach_network_disk(args, plan, root, sizeof(root), why);

	if (r < 0)
		return r;
	if (devspec_parse(root, &spec) < 0)
		return failed(why, -EINVAL, "root=%s%s names no device; use root=/dev/..., LABEL=, "
			      "UUID=, PARTUUID=, PARTLABEL= or MAJ:MIN", root, root[0] ? "" : " (empty)");
	r = devwait_find(&spec, plan->root_kind == ROOT_KIND_ISCSI || nvmf_root_wanted(&args->nvmf) ?
			 clock_left_sec(deadline, clock_now_ms()) : args->root.timeout_sec, &dev);
	if (r == -ETIMEDOUT)
		return failed(why, r, "root device root=%s did not appear within rd.timeout; "
			      "check root= against the devices below", root);
	if (r < 0)
		return failed(why, r, "waiting for root=%s failed: %s", root, strerror(-r));
	timeline_mark("rootdev", "/dev/%s", dev.devname);
	snprintf(root_device_told, sizeof(root_device_told), "/dev/%s", dev.devname);
	reach_stage(args, STAGE_PRE_MOUNT);
	reach_stage(args, STAGE_MOUNT);
	/* A mount script mounted the root: it replaces lifeboat's check and mount. */
	if (sysroot_is_mounted()) {
		timeline_mark("mounted", "by a mount script");
		return 0;
	}
	type = args->root.fstype[0] ? args->root.fstype : dev.info.type;
	/* The checker mostly waits for the disk: the filesystem's module
	 * loads meanwhile, unless preload_root_fs started it already. */
	if (args->fsck != FSCK_MODE_SKIP && type[0])
		mount_root_preload(type);
	/* After the resume decision, before the mount: the checker may write. */
	r = fsck_before_mount(args->fsck, dev.devname, type, why, WHY_MAX);
	if (r < 0)
		return r;
	if (r > 0 && fsck_stamp_leave(FSCK_ROOT_STAMP) < 0)
		log_warn("writing %s failed: the real root's systemd checks /dev/%s again",
			 FSCK_ROOT_STAMP, dev.devname);
	if (mount_root(&args->root, &dev) < 0)
		return failed(why, -EIO, "mounting the root filesystem /dev/%s failed; see the "
			      "message above", dev.devname);
	timeline_mark("mounted", "/dev/%s %s", dev.devname, type);
	return 0;
}

/* The real root's udev reads device-mapper's flags back from its database
 * when it replays the volumes' "add"; without them systemd never takes the
 * volumes for ready (blockstack/udevdb.h). Not a failure of the boot. */
static void leave_udev_db(void)
{
	char dev[64];
	int r = udevdb_leave_stacks(dev, sizeof(dev));

	if (r < 0)
		log_warn("writing udev's database entry of %s under %s failed (%s): the real "
			 "root's systemd will not take it for ready and waits 90 s for what fstab "
			 "puts on it", dev, UDEVDB_DIR, strerror(-r));
}

/* Mount the root (unless a previous try or the rescue shell did) as the
 * plan says, and enter it; returns only on failure. */
static int boot_root(struct boot_args *args, const struct boot_plan *plan,
		     char **argv, char *why)
{
	const char *init = args->root.init[0] ? args->root.init : DEFAULT_INIT;

	if (!sysroot_is_mounted()) {
		int r = plan->root_kind == ROOT_KIND_NFS ? mount_nfs_root(args, plan, why) :
			plan->root_kind == ROOT_KIND_LIVE ? mount_live_root(args, plan, why) :
							    mount_disk_root(args, plan, why);
		if (r < 0)
			return r;
		load_driver_list(&args->drivers.post, "rd.driver.post");
	}
	/* A /usr of its own holds a merged-/usr system's init: mounted before
	 * the pre-pivot scripts and the check of init=. */
	if (usr_mount(&args->root, args->fsck, why, WHY_MAX) < 0)
		return -EIO;
	reach_stage(args, STAGE_PRE_PIVOT);
	if (switch_root_check_init(SYSROOT, init) < 0)
		return failed(why, -ENOENT, "init=%s is missing or not executable on the root "
			      "filesystem; give init= the path of the real init", init);
	/* Before the udev database: its entries carry the names. */
	luksname_follow_root(SYSROOT);
	leave_udev_db();
	/* Not a failure of the boot: the root runs, only its way out is lost. */
	if (shutdown_leave_env(SYSROOT, args->rescue.break_stages & STAGE_BIT(STAGE_SHUTDOWN),
			       why, WHY_MAX) < 0)
		log_warn("%s", why);
	/* Nothing of the initramfs may listen once the real root runs, nor
	 * run on: the SSH server, then whatever its sessions or a rescue
	 * shell left (bootlib/procsweep.c). */
	remote_stop();
	if (procsweep_all(why, WHY_MAX) < 0)
		log_warn("%s", why);
	timeline_mark("exec", "%s", init);
	argv[0] = (char *)init;
	return switch_root(SYSROOT, init, argv, why, WHY_MAX);
}

/* The root's filesystem module is the largest most boots load (ext4:
 * 2 MB, the kernel's work on it more than half of the time from /init to
 * the root's init in the bench VM). When its type is known before the device appears (rootfstype=,
 * or the root of the machine a host-only image was built for), a child
 * loads it while the devices are found. */
static void preload_root_fs(const struct boot_args *args, const struct boot_plan *plan)
{
	char type[CMDLINE_VALUE_MAX];

	if (plan->root_kind == ROOT_KIND_NFS || plan->root_kind == ROOT_KIND_LIVE)
		return;
	if (args->root.fstype[0])
		mount_root_preload(args->root.fstype);
	else if (file_read_line(LAYOUT_ROOT_FSTYPE, type, sizeof(type)) == 0 && type[0])
		mount_root_preload(type);
}

/* The boot, step by step. Each step that can fail says what failed;
 * rescue (rescue/rescue.h) reports it, gives the shell, and the step is
 * tried again when the person leaves it. */
int main(int argc, char **argv)
{
	static struct boot_args args;
	struct boot_plan plan;
	char why[WHY_MAX];
	/* The init under another name: the rescue shell's modprobe. */
	int r = multicall_run(argc, argv);

	if (r >= 0)
		return r;
	timeline_mark("start", NULL);
	r = early_mounts(why, sizeof(why));
	early_console();
	if (r < 0)
		failure_poweroff(why);
	timeline_flush();
	bootargs_init(&args);
	bootargs_load(&args);
	log_set_debug(args.debug);
	boot_plan_make(&args, &plan);
	root_kind_told = boot_plan_root_kind_word(plan.root_kind);
	rescue_summary_lists(plan.root_kind == ROOT_KIND_DISK ? RESCUE_SUMMARY_DISKS :
			     plan.root_kind == ROOT_KIND_NFS || plan.root_kind == ROOT_KIND_LIVE ?
			     RESCUE_SUMMARY_NETWORK :
			     RESCUE_SUMMARY_DISKS | RESCUE_SUMMARY_NETWORK);
	log_info("starting; the root is on %s", boot_plan_root_kind_name(plan.root_kind));
	setup_vconsole(&args.vconsole);
	/* Before any boot script: what plymouthd needs (bootlib/splash.h). */
	splash_prepare(args.vconsole.splash_ignore_serial);
	reach_stage(&args, STAGE_CMDLINE);
	setup_drivers(&args.drivers);
	/* After rd.driver.pre=, which is how ramoops is loaded. */
	lastreport_show_last_boot();
	reach_stage(&args, STAGE_PRE_UDEV);
	/* LUKS, LVM and md are assembled as their members appear, in the
	 * device waits of a capture, of the resume decision and of the root. */
	blockstack_setup(&args.stacks);
	/* A kernel started by a crash saves the dump and goes no further. */
	if (plan.capture)
		kdump_capture(&args.net, &args.rescue, plan.tang_bindings);
	preload_root_fs(&args, &plan);
	/* Tang's servers are on the network, and the resume device may be
	 * in a bound container: links and addresses come up before the
	 * resume decision (that mounts nothing). */
	if (plan.tang) {
		disk_network_up(&plan);
		tried_early = true;
	}
	/* Before anything mounts a disk: see resume/resume.c. */
	resume_from_hibernation(&args.resume);
	blockstack_resume_decided();
	for (;;) {
		boot_root(&args, &plan, argv, why);
		rescue_failure(&args.rescue, why);
		if (args.root.timeout_sec == 0 || args.root.timeout_sec > RETRY_TIMEOUT_SEC)
			args.root.timeout_sec = RETRY_TIMEOUT_SEC;
		plan.net.timeout_sec = args.root.timeout_sec;
	}
}
