/* blockstack: assemble LUKS, LVM and md RAID stacks as their members appear.
 *
 * The device wait (bootlib/devwait.c, through its observer) offers every block device it sees;
 * a LUKS container is opened (passphrase on the console), an LVM physical
 * volume activates its volume group, an md member is added with mdadm
 * --incremental. What they create appears as a new block device and is
 * offered in turn, so any nesting (LVM on LUKS, LUKS on md, ...) follows.
 * The tools are the distribution's own, in the image (gen/feature/blockstacks.c). */
#ifndef LIFEBOAT_BLOCKSTACK_H
#define LIFEBOAT_BLOCKSTACK_H

#include <stdbool.h>

#include "blockstack/stack_params.h"

/* Take the rd.luks*, rd.lvm*, rd.md* words (as the command line's parse
 * left them), then the image's crypttab. */
void blockstack_setup(const struct stack_params *p);
/* A block device appeared or changed: assemble what it is a member of.
 * Safe to call again for the same device. */
void blockstack_device_added(const char *devname);
/* The resume decision is made: key devices (rd.luks.key=...:KEYDEV) may
 * now be mounted read-only. Before it their keys are not read. */
void blockstack_resume_decided(void);
/* Nobody is expected at the console (a capture kernel, which decides no
 * resume either): key devices may be read at once, and a prompt for a
 * container (passphrase, TPM2 PIN) gives up after prompt_sec seconds,
 * leaving it locked; key files, TPM2 tokens and Tang bindings open it
 * as in any boot. */
void blockstack_unattended(unsigned int prompt_sec);
/* No device appeared for a while: start md arrays that are still missing
 * members (degraded), as their other members may never come; containers
 * still waiting for a key device fall back to the passphrase. */
void blockstack_settled(void);

#endif
