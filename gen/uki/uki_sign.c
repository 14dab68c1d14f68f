/* uki_sign: sbsign runs on the assembled image; a key protected by a
 * passphrase is found out before the build, not by sbsign's failure. */
#include "gen/uki/uki_sign.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileread.h"
#include "gen/gen_report.h"

#define KEY_FILE_MAX (1u << 20)

bool uki_sign_key_encrypted(const char *path)
{
	char *pem;
	size_t len;
	bool encrypted;

	if (file_read_all(path, KEY_FILE_MAX, &pem, &len) < 0)
		return false;
	encrypted = strstr(pem, "-----BEGIN ENCRYPTED PRIVATE KEY-----") ||
		    strstr(pem, "Proc-Type: 4,ENCRYPTED");
	explicit_bzero(pem, len);
	free(pem);
	return encrypted;
}

/* OpenSSL asks on /dev/tty, or on standard input when that is a terminal. */
static bool have_terminal(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	return isatty(STDIN_FILENO);
}

int uki_sign_check(const char *key)
{
	if (!uki_sign_key_encrypted(key) || have_terminal())
		return 0;
	gen_error("the signing key %s is protected by a passphrase, and there is no terminal "
		  "to ask it on: run lifeboat build from a terminal, or give a key without one "
		  "(openssl pkey -in %s -out KEY, kept where only root reads it)", key, key);
	return -EINVAL;
}

static void __attribute__((noreturn)) sbsign_exec(const char *key, const char *cert,
						  const char *in, const char *out)
{
	const char *argv[] = { "sbsign", "--key", key, "--cert", cert, "--output", out, in, NULL };

	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

int uki_sign(const char *key, const char *cert, const char *in, const char *out)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		sbsign_exec(key, cert, in, out);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return chmod(out, 0600) < 0 ? -errno : 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		gen_error("cannot sign %s: sbsign was not found; install sbsigntool", out);
	else if (uki_sign_key_encrypted(key))
		gen_error("sbsign could not sign %s: the key %s needs its passphrase, and it was "
			  "not given or was wrong; run again and type it", out, key);
	else
		gen_error("sbsign could not sign %s with key %s and certificate %s (its message is "
			  "above); check that the key matches the certificate", out, key, cert);
	return -EIO;
}
