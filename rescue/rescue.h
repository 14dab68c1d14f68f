/* rescue: where the boot goes when it stops, by failure or by rd.break.
 *
 * The flow (docs/rescue.md): write /run/initramfs/rdsosreport.txt, print a
 * short summary of what failed and what to try, ask for the root password
 * when the image was built with --rescue-auth, then run the image's shell on
 * the console (or the built-in prompt when there is none). When the person
 * leaves it, the caller goes on: it retries the step that failed, or
 * continues from the break. */
#ifndef LIFEBOAT_RESCUE_RESCUE_H
#define LIFEBOAT_RESCUE_RESCUE_H

#include "bootlib/rescue_args.h"
#include "bootlib/stage.h"

/* Seconds the summary stays on the screen before the reboot that ends a
 * boot without a shell (rd.shell=0, three wrong passwords). */
#define RESCUE_REBOOT_DELAY_SEC 10

/* What the failure summary lists besides the failure: the block devices
 * (a disk root, an iSCSI LUN's disk) and the network's interfaces with their
 * links, addresses and leases (a root on NFS or iSCSI). init/ says which
 * once it has decided the root; the block devices until then. */
enum rescue_summary {
	RESCUE_SUMMARY_DISKS = 1,
	RESCUE_SUMMARY_NETWORK = 2,
};
void rescue_summary_lists(unsigned int what);

/* rd.break=STAGE: stop here when args asks for it, return when the person
 * leaves the shell. Does nothing for stages not asked for. */
void rescue_break(const struct rescue_args *args, enum boot_stage stage);
/* The boot failed; what says how and what to try. Returns when the person
 * leaves the shell, for the caller to retry. With rd.shell=0, or when the
 * password is refused, reboots instead and does not return. */
void rescue_failure(const struct rescue_args *args, const char *what);

#endif
