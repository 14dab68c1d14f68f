/* bounded: run one step of the way out in a child process with a time
 * limit, so a step stuck in the kernel (an NFS server gone, a disk that
 * does not answer) does not stop the machine from powering off. */
#ifndef LIFEBOAT_SHUTDOWN_BOUNDED_H
#define LIFEBOAT_SHUTDOWN_BOUNDED_H

/* Run fn() in a child; its return value (0..255) is the child's exit
 * status. Returns that status, -ETIMEDOUT when the child did not end within
 * timeout_ms (it is sent SIGKILL and left), or -errno when it could not be
 * started. */
int bounded_run(int (*fn)(void), unsigned int timeout_ms);

#endif
