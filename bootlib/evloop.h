/* evloop: the one loop that follows kernel events, also while a prompt waits. */
#ifndef LIFEBOAT_BOOTLIB_EVLOOP_H
#define LIFEBOAT_BOOTLIB_EVLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bootlib/uevent.h"

/* Who else follows the block devices the loop sees: the block stacks
 * (blockstack/) assemble LUKS, LVM and md as their members appear. The
 * loop calls added() for every block device added (again on "change"),
 * settled() when no event came for a while, and console_free() when the
 * last prompt holding the console ended (what was queued behind it may
 * ask now). */
struct evloop_observer {
	void (*added)(const char *devname);
	void (*settled)(void);
	void (*console_free)(void);
};

/* Register the one observer (NULL: none). */
void evloop_observe(const struct evloop_observer *obs);

/* The image's uevent socket: opened by the first call, before a coldplug
 * pass, so no device is missed between the two; it stays open for every
 * later wait (exec closes it). Returns the fd or -errno. */
int evloop_start(void);

/* Handle every uevent queued on fd: load the driver each added device's
 * MODALIAS asks for and, on the image's socket (evloop_start()), offer
 * block devices to the observer. Another socket's block events are not
 * offered: the kernel sends each event to every socket, so the image's
 * socket offers it too. Returns true when match(ev, ctx) accepted an
 * event (match NULL: any event), or when events were lost (a coldplug
 * pass and an offer of every block device stand in for them): the caller
 * should look again at what exists. */
bool evloop_drain(int fd, bool (*match)(const struct uevent *ev, void *ctx), void *ctx);

/* Offer every block device that exists to the observer. */
void evloop_offer_existing(void);
/* How many block devices the loop offered while a prompt held the
 * console: a wait under the prompt compares it to see whether it must
 * look again at what exists (the prompt's loop took its events). */
unsigned long evloop_offered_under_prompt(void);

/* A wait sleeps at most this long at a time, so that a quiet period is
 * noticed: md arrays missing members then start degraded. */
#define EVLOOP_QUIET_MS 5000
/* While late devices (bootlib/coldplug.h) wait for their drivers, a quiet
 * period is this short: a root that is not on an early controller costs
 * the boot about this much, one that is saves the late drivers' time. */
#define EVLOOP_LATE_MS 150
/* The quiet period now: EVLOOP_LATE_MS while late drivers wait, else
 * EVLOOP_QUIET_MS. */
int evloop_quiet_ms(void);
/* No event came for evloop_quiet_ms(): load the late drivers if they
 * wait, else tell the observer. */
void evloop_quiet(void);
/* Load the late devices' drivers now (once; before any prompt). */
void evloop_load_late(void);

/* A prompt takes the console (prompts nest: the loop under one may offer
 * a device whose stack asks for a passphrase) and gives it back. Before
 * the first prompt, the keyboards already present get their drivers. */
void evloop_prompt_begin(void);
void evloop_prompt_end(void);
/* Whether some prompt holds the console now: a new one should be queued
 * behind it instead of asking at once. */
bool evloop_prompt_busy(void);

/* Wait until one of fds (a prompt's consoles) is readable or hung up,
 * serving the image's uevent socket meanwhile (when it was started), or
 * until deadline_ms (CLOCK_MONOTONIC, bootlib/clock.h; 0: no deadline)
 * passes. Returns the index of that fd, -ETIMEDOUT at the deadline, or
 * -errno when poll fails. */
int evloop_wait_input(const int *fds, size_t n, uint64_t deadline_ms);

/* Wait for the child pid (a shell on the console: prompts queue behind
 * it) to end, serving the uevent socket meanwhile, and reap it. Returns 0
 * or -errno. */
int evloop_wait_child(pid_t pid);

#endif
