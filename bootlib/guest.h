/* guest: a remote login's seat at a console prompt.
 *
 * While the SSH server runs (remote/), a prompt that a remote login may
 * answer (the LUKS passphrase) listens on a unix socket in /run; the
 * login's unlock command (lifeboat-login) connects, sees what the prompt
 * printed, and sends the answer as one line. The socket is root's only
 * (0600 in a 0700 directory, and the peer's uid is checked) and exists
 * only while such a prompt waits. What a guest sends is a secret: it is
 * never logged. */
#ifndef LIFEBOAT_BOOTLIB_GUEST_H
#define LIFEBOAT_BOOTLIB_GUEST_H

#include <stdbool.h>
#include <stddef.h>

#define GUEST_DIR "/run/lifeboat"
#define GUEST_SOCKET GUEST_DIR "/prompt.sock"

/* Whether prompts take guests: on once the SSH server runs. */
void guest_allow(bool on);
bool guest_allowed(void);
/* Listen on path for guests (a stale socket file is replaced). Returns
 * the fd, -EPERM when guests are not allowed, or -errno. */
int guest_listen(const char *path);
/* Stop listening: close fd and remove path. */
void guest_unlisten(int fd, const char *path);
/* Accept one guest on the listening fd: root's connections only. Returns
 * the connection's fd, or -errno (-EACCES for another user's). */
int guest_accept(int listen_fd);
/* One line a guest sent, without its newline, into buf. A guest sends a
 * whole line at once: the rest of a line must follow within a second.
 * Bytes are read one at a time so that a second line stays queued for
 * the next prompt. Returns the length, -EIO when the guest left or
 * stalled, or -errno. */
int guest_read_line(int fd, char *buf, size_t size);

#endif
