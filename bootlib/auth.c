/* auth: the root password before a rescue shell (lifeboat build --rescue-auth).
 *
 * Like sulogin: the hash is the root account's from the build host, checked
 * with crypt(3), which knows every method /etc/shadow may use (yescrypt,
 * SHA-512, ...). The check fails closed: without libcrypt no password is
 * accepted. */
#include "bootlib/auth.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/console.h"
#include "common/fileread.h"

int auth_load(const char *path, char *hash, size_t size)
{
	int r = file_read_line(path, hash, size);

	if (r < 0)
		return r == -EIO ? -EINVAL : r;
	/* crypt(3) hashes never hold ':' and are never this short. */
	if (strlen(hash) < 2 || strchr(hash, ':'))
		return -EINVAL;
	return 0;
}

/* Compare without stopping at the first difference, so the time taken does
 * not tell how much of a guess was right. */
static bool equal_fixed_time(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

/* crypt(3): the linked one (auth_use_crypt), else libcrypt opened when a
 * password is first checked. */
static char *(*crypt_fn)(const char *, const char *);

void auth_use_crypt(char *(*fn)(const char *, const char *))
{
	crypt_fn = fn;
}

int auth_check(const char *hash, const char *password)
{
	const char *out;

	if (!crypt_fn) {
		void *lib = dlopen(RESCUE_LIBCRYPT, RTLD_NOW | RTLD_LOCAL);

		if (lib)
			*(void **)&crypt_fn = dlsym(lib, "crypt");
		if (!crypt_fn)
			return -ENOSYS;
	}
	out = crypt_fn(password, hash);
	/* libxcrypt returns a string starting with '*' on failure. */
	if (!out || out[0] == '*' || !equal_fixed_time(out, hash))
		return -EACCES;
	return 0;
}

/* One try on every console; the answer's console index goes to which. */
static int ask_once(struct console_set *cons, const char *hash, size_t *which)
{
	char password[256];
	int r;

	console_printf_all(cons, "Give root password for the rescue shell: ");
	r = console_read_answer(cons, password, sizeof(password), true, which);
	if (r < 0)
		return -EIO;
	r = auth_check(hash, password);
	explicit_bzero(password, sizeof(password));
	return r;
}

int auth_ask(const char *hash, char *tty, size_t size)
{
	struct console_set cons;
	size_t which = 0;
	int r = console_open_all(&cons);

	if (r < 0)
		return -EIO;
	r = -EACCES;
	for (int i = 0; i < RESCUE_AUTH_TRIES && r == -EACCES; i++) {
		r = ask_once(&cons, hash, &which);
		if (r == -EACCES) {
			console_printf_all(&cons, "Login incorrect.\n");
			sleep(2);
		}
	}
	if (r == 0) {
		snprintf(tty, size, "%s", cons.path[which]);
		if (cons.n > 1)
			console_printf_all(&cons, "lifeboat: the rescue shell runs on %s, where the "
					   "password was typed\n", tty);
	}
	console_close_all(&cons);
	return r;
}
