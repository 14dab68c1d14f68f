/* lifeboat-init: PID 1 of the initramfs. main() reads as the boot does. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockstack/blockstack.h"
#include "init/bootargs.h"
#include "bootlib/cmdline.h"
#include "init/early.h"
#include "init/failure.h"
#include "fsck/fsck.h"
#include "kdump/kdump.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "common/modtab.h"
#include "init/mountroot.h"
#include "net/iscsi.h"
#include "net/net.h"
#include "rescue/rescue.h"
#include "resume/resume.h"
#include "bootlib/devspec.h"
#include "bootlib/devwait.h"
#include "init/switchroot.h"
#include "bootlib/timeline.h"
#include "common/redact.h"

#define DEFAULT_INIT "/sbin/init"
/* After the rescue shell the devices are usually there already (the person
 * added or fixed them): a retry waits this long, not rd.timeout again. */
#define RETRY_TIMEOUT_SEC 10

static char failure_text[512];

static const char *fail_text(const char *fmt, const char *a, const char *b)
{
	snprintf(failure_text, sizeof(failure_text), fmt, a, b);
	return failure_text;
}

static void load_driver_list(const struct strv *names, const char *param)
{
	for (size_t i = 0; i < names->len; i++)
		if (modload_name(names->items[i]) < 0)
			log_warn("%s=%s: the module could not be loaded; check its name "
				 "and that the image has it (lifeboat ls)", param, names->items[i]);
}

static void setup_drivers(const struct boot_args *args)
{
	int r = modload_open(MODTAB_PATH);

	if (r < 0)
		log_error("reading the module table %s failed (%s); no driver will be "
			  "loaded: rebuild the image", MODTAB_PATH, strerror(-r));
	for (size_t i = 0; i < args->driver_blacklist.len; i++)
		modload_blacklist(args->driver_blacklist.items[i]);
	load_driver_list(&args->driver_pre, "rd.driver.pre");
}

/* The network root: net/ configures the network and mounts NFS on /sysroot. */
static const char *mount_net_root(const struct boot_args *args)
{
	char why[400];

	if (net_root_mount(args, why, sizeof(why)) < 0)
		return fail_text("network root: %s%s", why, "");
	load_driver_list(&args->driver_post, "rd.driver.post");
	return NULL;
}

/* rd.neednet=1 with a local root: the network is up before the real init,
 * which may need it; a failure is reported and the boot goes on. */
static void bring_up_network(const struct boot_args *args)
{
	char why[400];

	if (args->neednet && net_bring_up(args, why, sizeof(why)) < 0)
		log_warn("rd.neednet: %s; the real root starts without the network", why);
}

/* The network part of a disk root: an iSCSI login, whose LUN then appears
 * as a local disk, or rd.neednet's setup. root gets what names the root
 * device (the LUN's disk when root= names no filesystem). */
static const char *attach_network_disk(struct boot_args *args, char *root, size_t size)
{
	char why[400];

	snprintf(root, size, "%s", args->root);
	if (!iscsi_root_wanted(args))
		bring_up_network(args);
	else if (iscsi_root_attach(args, root, size, why, sizeof(why)) < 0)
		return fail_text("iSCSI root: %s%s", why, "");
	return NULL;
}

/* Find the root device and mount it on /sysroot; returns what failed. */
static const char *mount_disk_root(struct boot_args *args)
{
	struct dev_spec spec;
	struct found_dev dev;
	char root[CMDLINE_VALUE_MAX];
	const char *what;
	int r;

	if (net_root_wanted(args) && !iscsi_root_wanted(args))
		return mount_net_root(args);
	what = attach_network_disk(args, root, sizeof(root));
	if (what)
		return what;
	if (devspec_parse(root, &spec) < 0)
		return fail_text("root=%s%s names no device; use root=/dev/..., LABEL=, UUID=, "
				 "PARTUUID=, PARTLABEL= or MAJ:MIN", root,
				 root[0] ? "" : " (empty)");
	r = devwait_find(&spec, args->timeout_sec, &dev);
	if (r == -ETIMEDOUT)
		return fail_text("root device root=%s did not appear within rd.timeout%s; "
				 "check root= against the devices below", root, "");
	if (r < 0)
		return fail_text("waiting for root=%s failed: %s", root, strerror(-r));
	timeline_mark("rootdev", "/dev/%s", dev.devname);
	rescue_break(args, STAGE_PRE_MOUNT);
	rescue_break(args, STAGE_MOUNT);
	/* After the resume decision, before the mount: the checker may write. */
	const char *unrepaired = fsck_before_mount(args, dev.devname, dev.info.type);
	if (unrepaired)
		return unrepaired;
	if (mount_root(args, &dev) < 0)
		return fail_text("mounting the root filesystem /dev/%s failed%s; see the "
				 "message above", dev.devname, "");
	timeline_mark("mounted", "/dev/%s %s", dev.devname, args->rootfstype[0] ? args->rootfstype : dev.info.type);
	load_driver_list(&args->driver_post, "rd.driver.post");
	return NULL;
}

/* Mount (unless a previous try or the rescue shell did) and enter the real
 * root; returns only on failure. */
static const char *boot_disk_root(struct boot_args *args, char **argv)
{
	const char *init = args->init[0] ? args->init : DEFAULT_INIT;
	const char *what = sysroot_is_mounted() ? NULL : mount_disk_root(args);
	const char *step;
	int r;

	if (what)
		return what;
	rescue_break(args, STAGE_PRE_PIVOT);
	if (switch_root_check_init(SYSROOT, init) < 0)
		return fail_text("init=%s is missing or not executable on the root filesystem "
				 "%s; give init= the path of the real init", init, "");
	timeline_mark("exec", "%s", init);
	argv[0] = (char *)init;
	r = switch_root(SYSROOT, init, argv, &step);
	return fail_text("switch_root failed while %s: %s", step, strerror(-r));
}

/* root= may be an iSCSI path with USER:PASSWORD@: logged without them. */
static void log_root(const struct boot_args *args)
{
	char shown[CMDLINE_VALUE_MAX];

	redact_path(args->root, shown, sizeof(shown));
	log_info("starting; root=%s", shown);
}

/* The boot, step by step. Each step that can fail returns a description of
 * what failed; rescue (rescue/rescue.h) reports it, gives the shell, and the
 * step is tried again when the person leaves it. */
int main(int argc, char **argv)
{
	struct boot_args args;
	const char *what;
	int r;

	(void)argc;
	timeline_mark("start", NULL);
	r = early_mounts(&what);
	early_console();
	if (r < 0)
		failure_poweroff(fail_text("mounting %s failed: %s", what, strerror(-r)));
	timeline_flush();
	boot_args_init(&args);
	bootargs_load(&args);
	log_set_debug(args.debug);
	log_root(&args);
	rescue_break(&args, STAGE_CMDLINE);
	setup_drivers(&args);
	rescue_break(&args, STAGE_PRE_UDEV);
	/* A kernel started by a crash saves the dump and goes no further. */
	kdump_capture_if_crashed(&args);
	/* LUKS, LVM and md are assembled as their members appear, in the
	 * device waits of the resume decision and of the root. */
	blockstack_setup(&args);
	/* Before anything mounts a disk: see resume/resume.c. */
	resume_from_hibernation(&args);
	blockstack_resume_decided();
	for (;;) {
		rescue_failure(&args, boot_disk_root(&args, argv));
		if (args.timeout_sec == 0 || args.timeout_sec > RETRY_TIMEOUT_SEC)
			args.timeout_sec = RETRY_TIMEOUT_SEC;
	}
}
