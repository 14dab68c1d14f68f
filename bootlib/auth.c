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

int auth_check(const char *hash, const char *password)
{
	static char *(*crypt_fn)(const char *, const char *);
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

int auth_ask(int fd, const char *hash)
{
	char password[256];

	for (int i = 0; i < RESCUE_AUTH_TRIES; i++) {
		int r;

		dprintf(fd, "Give root password for the rescue shell: ");
		r = console_read_line(fd, password, sizeof(password), true);
		if (r < 0)
			return -EIO;
		r = auth_check(hash, password);
		explicit_bzero(password, sizeof(password));
		if (r == 0)
			return 0;
		if (r == -ENOSYS)
			return r;
		dprintf(fd, "Login incorrect.\n");
		sleep(2);
	}
	return -EACCES;
}
