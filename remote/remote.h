/* remote: the SSH server of an image built with --ssh (docs/remote.md).
 *
 * Debian's dropbear, started by the init once the network is up, key-only
 * (root's authorized keys from the build), with the image's own host key.
 * A login runs lifeboat-login (remote/login_main.c): the LUKS prompt when
 * one waits (bootlib/guest.h), else the report and the shell gate
 * (bootlib/shell.h). The server, and every session under it, is stopped
 * before switch_root, so nothing of the initramfs listens afterwards and
 * the real root's sshd can bind the port. */
#ifndef LIFEBOAT_REMOTE_REMOTE_H
#define LIFEBOAT_REMOTE_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "bootlib/rescue_args.h"
#include "remote/remote_args.h"

/* The server's messages, with what it was asked (no secret reaches it). */
#define REMOTE_LOG "/run/lifeboat/dropbear.log"
/* Where dropbear records logins (Debian's build: lastlog). */
#define REMOTE_LASTLOG "/var/log/lastlog"
/* Failed authentications per connection (dropbear -T): dropbear itself
 * bounds the connections not yet logged in (in all and per address). */
#define REMOTE_AUTH_TRIES "3"

/* Whether the image carries the server (built with --ssh). */
bool remote_in_image(void);
/* Start the server on args->port unless rd.ssh=0 or the image has none
 * (both 0); rescue's rd.shell goes to the gate's published facts. Safe
 * to call again (a running server stays). Returns 0, or -errno with what
 * failed in why. */
int remote_start(const struct remote_args *args, const struct rescue_args *rescue,
		 char *why, size_t why_size);
/* Stop the server and every session under it, reap them, close the
 * prompt's door for guests. Nothing when none runs. */
void remote_stop(void);

#endif
