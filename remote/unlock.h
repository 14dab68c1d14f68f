/* unlock: a login's seat at the waiting passphrase prompt (bootlib/guest.h). */
#ifndef LIFEBOAT_REMOTE_UNLOCK_H
#define LIFEBOAT_REMOTE_UNLOCK_H

/* How long a login waits for a prompt to appear (a container not yet
 * seen), and for the prompt to speak once the input has ended. */
#define UNLOCK_WAIT_MS 30000

/* Connect to the prompt's socket at path (waiting up to wait_ms for it),
 * then relay: what the prompt says goes to out, each line typed on in
 * (echo off when in is a terminal) goes to the prompt, one line per
 * thing the prompt said, so a second line answers the next try. Ends when
 * the prompt ends. Returns 0, -ENOENT when no prompt appeared, or
 * -errno. */
int unlock_relay(const char *path, int in, int out, unsigned int wait_ms);

#endif
