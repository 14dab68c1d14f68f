/* lukstang_retry: a container's clevis bindings tried again while its
 * passphrase prompt is up (a Tang server that was down at boot may come
 * up meanwhile: power back in a rack; issue 39 item 4).
 *
 * A child of the init runs lifeboat-clevis again and again, with the
 * pauses of bootlib/patience.h (the first try 1 s after the prompt shows,
 * then 2, 4, 8 s apart, 8 s at most), until a try opens the container or
 * the prompt's deadline (none: for as long as the prompt is up). The
 * prompt watches the child's pipe beside its consoles (console_set's
 * wake_fd): a binding that opens the container ends the prompt, a typed
 * answer ends the child. The child is a process group of its own, so
 * ending it ends the lifeboat-clevis and cryptsetup it started; it writes
 * nothing but, once a binding opened the container, lifeboat-clevis's
 * words on its pipe (no key: that goes from lifeboat-clevis straight to
 * cryptsetup). It mounts nothing, so it may run before the resume
 * decision. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSTANG_RETRY_H
#define LIFEBOAT_BLOCKSTACK_LUKSTANG_RETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blockstack/luks.h"
#include "bootlib/console.h"

struct lukstang_retry {
	pid_t pid;   /* the child, a process group leader; 0: none */
	int fd;      /* its pipe: readable once it ended; -1: none */
};

/* Start trying argv (a NULL-terminated command whose exit status 0 means
 * the container opened) in the background until deadline_ms
 * (CLOCK_MONOTONIC ms; 0: until ended). Returns 0 or -errno. */
int lukstang_retry_start(struct lukstang_retry *t, char *const argv[], uint64_t deadline_ms);
/* After t->fd became readable: reap the child, its successful try's
 * output into out. Returns 0 when a try succeeded, -ETIMEDOUT when the
 * deadline ended the tries. */
int lukstang_retry_finish(struct lukstang_retry *t, char *out, size_t size);
/* End the tries now (the child and what it started are killed, then
 * reaped). Returns 0 when a try had succeeded before (out: its output),
 * else -ECANCELED. */
int lukstang_retry_cancel(struct lukstang_retry *t, char *out, size_t size);

/* luks_unlock's answer for c, whose clevis bindings failed before the
 * prompt: console_read_answer on cons, the bindings tried again
 * meanwhile. When one opens c first, every console of cons hears which
 * (token, Tang server), *opened is set and this returns 0 (buf empty);
 * else what console_read_answer returned (a typed answer wins at once). */
int lukstang_retry_answer(struct console_set *cons, const struct luks_container *c, char *buf,
			  size_t size, bool *opened);
/* What luks.c's one try returns when a binding opened the container. */
#define LUKSTANG_RETRY_OPENED 1

#endif
