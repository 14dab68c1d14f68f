/* resume: restore a hibernated system before anything mounts a disk.
 *
 * The order is the safety rule of Documentation/power/swsusp.rst: a
 * filesystem that was mounted when the system hibernated must not be
 * touched (not even mounted read-only, which replays a journal) before the
 * image is restored, or the restored kernel's idea of it and the disk
 * differ. So this runs before the root is looked at, and checks that no
 * block filesystem is mounted before it hands the device to the kernel.
 *
 * Two kernel behaviours shape it (Debian's 6.1): a write to
 * /sys/power/resume succeeds whether or not an image was restored, and it
 * restores even when the command line says noresume. Hence the init honours
 * noresume itself and only writes after it has seen the kernel's signature.
 */
#include "resume/resume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/devwait.h"
#include "bootlib/log.h"
#include "bootlib/timeline.h"
#include "common/filewrite.h"
#include "common/mountinfo.h"
#include "resume/sigprobe.h"

#define SYS_RESUME "/sys/power/resume"
#define SYS_RESUME_OFFSET "/sys/power/resume_offset"

/* Wait for resume=; false (reported) when it does not come. */
static bool wait_device(const struct resume_args *args, struct found_dev *dev)
{
	struct dev_spec spec;
	int r;

	if (devspec_parse(args->device, &spec) < 0) {
		log_warn("resume=%s names no device; use /dev/..., LABEL=, UUID=, PARTUUID=, "
			 "PARTLABEL= or MAJ:MIN. Booting without resuming", args->device);
		return false;
	}
	timeline_mark("resume-wait", "%s", args->device);
	r = devwait_find(&spec, args->timeout_sec, dev);
	if (r == -ETIMEDOUT)
		log_console("lifeboat: the resume device resume=%s did not appear within "
			    "rd.resume.timeout=%u s; booting without resuming. If this machine "
			    "was hibernated, its image stays there: check resume= or raise "
			    "rd.resume.timeout\n", args->device, args->timeout_sec);
	else if (r < 0)
		log_error("waiting for the resume device resume=%s failed (%s); booting "
			  "without resuming", args->device, strerror(-r));
	return r == 0;
}

struct block_mount {
	char what[512];
};

/* Stops the walk at the first filesystem on a block device. */
static int block_mount_seen(const struct mountinfo_entry *m, void *ctx)
{
	struct block_mount *found = ctx;

	if (!mountinfo_is_block(m))
		return 0;
	snprintf(found->what, sizeof(found->what), "%s on %s", m->source, m->path);
	return 1;
}

/* The safety check: true when nothing on a block device is mounted yet. */
static bool no_block_mounts(const struct found_dev *dev)
{
	struct block_mount found;
	const char *what = found.what;
	int r = mountinfo_walk_file("/proc/self/mountinfo", block_mount_seen, &found);

	if (r == 0) {
		log_info("resume: no block filesystem is mounted; safe to resume from /dev/%s",
			 dev->devname);
		return true;
	}
	if (r > 0)
		log_error("resume: %s is mounted already; restoring the image of /dev/%s now "
			  "could corrupt that filesystem, so it is not restored. This is a bug "
			  "in the boot order: please report it", what, dev->devname);
	else
		log_error("resume: /proc/self/mountinfo cannot be read (%s), so it cannot be "
			  "shown that no filesystem is mounted; not resuming from /dev/%s",
			  strerror(-r), dev->devname);
	return false;
}

/* Whether the signature is a kernel image; logs what was found either way. */
static bool image_found(const struct found_dev *dev, unsigned long long offset,
			const struct resume_sig *sig)
{
	log_info("resume: /dev/%s at page %llu: %s (signature \"%s\"; libblkid TYPE=%s "
		 "VERSION=%s)", dev->devname, offset, swsusp_kind_name(sig->header.kind),
		 sig->header.sig, sig->blkid_type[0] ? sig->blkid_type : "none",
		 sig->blkid_version[0] ? sig->blkid_version : "none");
	timeline_mark("resume-check", "/dev/%s %s", dev->devname, sig->header.sig[0] ?
		      sig->header.sig : "none");
	if (sig->header.kind == SWSUSP_USERSPACE || sig->header.kind == SWSUSP_OTHER)
		log_console("lifeboat: /dev/%s holds a hibernation image the kernel cannot "
			    "restore (%s); lifeboat does not run uswsusp's resume program, so "
			    "the system boots afresh and the image stays untouched\n",
			    dev->devname, sig->header.sig);
	return sig->header.kind == SWSUSP_KERNEL;
}

/* Hand the image to the kernel; returns only when it was not restored. */
static void restore_image(const struct found_dev *dev, unsigned long long offset)
{
	char value[32];
	int r;

	snprintf(value, sizeof(value), "%llu", offset);
	r = file_write_value(SYS_RESUME_OFFSET, value);
	if (r < 0 && offset) {
		log_error("resume: writing resume_offset %s to %s failed (%s); this kernel "
			  "cannot resume from a swap file here; booting normally", value,
			  SYS_RESUME_OFFSET, strerror(-r));
		return;
	}
	snprintf(value, sizeof(value), "%u:%u", dev->major, dev->minor);
	timeline_mark("resume", "/dev/%s %s offset %llu", dev->devname, value, offset);
	timeline_flush();
	log_info("resume: restoring the hibernation image on /dev/%s (%s)", dev->devname, value);
	r = file_write_value(SYS_RESUME, value);
	if (r < 0)
		log_error("resume: writing %s to %s failed (%s)", value, SYS_RESUME, strerror(-r));
}

/* The kernel came back: say what is left on the device. */
static void report_not_restored(const struct found_dev *dev, unsigned long long offset)
{
	struct resume_sig after;
	bool gone = resume_sig_probe(dev->devname, offset, &after) == 0 &&
		    after.header.kind != SWSUSP_KERNEL;

	timeline_mark("resume-failed", "/dev/%s", dev->devname);
	log_console("lifeboat: the hibernation image on /dev/%s was not restored (the "
		    "kernel's reason is in its \"PM:\" messages above); booting normally. %s\n",
		    dev->devname, gone ? "The kernel has discarded the image: what was not "
		    "saved before hibernating is lost." : "The image is still on the device.");
}

void resume_from_hibernation(const struct resume_args *args)
{
	unsigned long long offset = args->offset;
	struct resume_sig sig;
	struct found_dev dev;
	int r;

	if (!args->device[0])
		return;
	if (args->noresume) {
		log_info("resume: noresume given; not looking at resume=%s. A hibernation "
			 "image there is not restored and stays until swap is set up on it",
			 args->device);
		timeline_mark("resume-skip", "noresume");
		return;
	}
	if (!wait_device(args, &dev))
		return;
	r = resume_sig_probe(dev.devname, offset, &sig);
	if (r < 0) {
		log_error("resume: reading the first page of /dev/%s at page %llu failed (%s); "
			  "check resume= and resume_offset=; booting without resuming",
			  dev.devname, offset, strerror(-r));
		return;
	}
	if (!image_found(&dev, offset, &sig) || !no_block_mounts(&dev))
		return;
	restore_image(&dev, offset);
	report_not_restored(&dev, offset);
}
