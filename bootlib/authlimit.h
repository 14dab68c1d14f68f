/* authlimit: the rescue password's wrong answers over SSH, counted for
 * the whole boot.
 *
 * Each SSH login is a process of its own and a refused one only ends its
 * connection: counted per login, a holder of an authorized key could try
 * passwords without end. The count lives in /run for the boot (0600,
 * root's); every try takes its lock, so parallel connections wait their
 * turn, and a wrong answer costs a pause that grows. At the limit no
 * password is taken over SSH until the next boot (the console's own gate
 * reboots after three wrong ones). */
#ifndef LIFEBOAT_BOOTLIB_AUTHLIMIT_H
#define LIFEBOAT_BOOTLIB_AUTHLIMIT_H

#define AUTHLIMIT_PATH "/run/lifeboat/auth.fails"
/* Wrong passwords over SSH in one boot, all logins together. */
#define AUTHLIMIT_MAX 10
/* The longest pause after a wrong password, in seconds. */
#define AUTHLIMIT_DELAY_MAX 60

/* The pause after the fails-th wrong password (fails >= 1): 2 s, then
 * twice as long each time, AUTHLIMIT_DELAY_MAX at most. */
unsigned int authlimit_delay_sec(unsigned int fails);
/* The file's text: a decimal count and a newline, or nothing (none yet).
 * Returns 0, or -EINVAL (the caller then counts it as the limit). */
int authlimit_parse(const char *text, unsigned int *fails);
/* Open path (made 0600 when missing) and take its lock, waiting for any
 * other login's try; the count so far into *fails (AUTHLIMIT_MAX when the
 * text is malformed). Refuses a file that is not a regular file of this
 * user, mode 0600 at most. Returns the locked fd or -errno. */
int authlimit_lock(const char *path, unsigned int *fails);
/* Write fails as the count of the locked fd. Returns 0 or -errno. */
int authlimit_record(int fd, unsigned int fails);

/* Whether the count at path allows another try: 0, or -EDQUOT (the limit
 * reached, or the count cannot be kept), said on stderr. */
int authlimit_may_try(const char *path);
/* Check password against hash (bootlib/auth.h) under the count at path:
 * counted before the check, so a connection cut meanwhile still counts,
 * and given back unless wrong. A wrong one pauses authlimit_delay_sec,
 * the lock held, so no other login tries meanwhile. Returns 0 (right),
 * -EACCES (wrong), -ENOSYS (no libcrypt), or -EDQUOT: no try is left this
 * boot (said on stderr, the limit also in the kernel log). */
int authlimit_check(const char *path, const char *hash, const char *password);

#endif
