/* lifeboat-clevis: recover the passphrase of a LUKS2 container from its
 * clevis bindings (pins tang, tpm2, sss and null), for the init
 * (blockstack/), which opens the container with it as with a typed one.
 *
 *   lifeboat-clevis DEVICE SECONDS [COMMAND ARG...]
 *   lifeboat-clevis --list DEVICE
 *
 * The clevis tokens of other pins are tried in token order, then those of
 * pin tang all at once (the first server to answer opens it, a silent one
 * is not waited for); each Tang server, or an sss binding's Tang servers
 * at every level together, given SECONDS to answer. The passphrase goes to COMMAND's standard input (the
 * init gives its `cryptsetup open --key-file=-`), so it never passes
 * through PID 1; without COMMAND, to standard output. For each binding
 * that failed, one line on standard error names the token, the server or
 * the TPM, and why. Before the passphrase is handed over, two lines on
 * standard error say what opened it, for the init's messages:
 * "clevis-binding: token ID" (", tang server URL" for pin tang) and
 * "clevis-used: PINS" ("tang", "tpm2", "sss (tpm2)").
 * --list prints "ID PIN URL" for each clevis token (URL: the tang
 * server's, for sss the first tang share's; "-" when there is none) and
 * contacts nobody: the generator asks it which of the host's containers
 * are bound (gen/host/tanghost.c).
 * Exit status: COMMAND's (0 without it) once a binding gave a passphrase;
 * else 64 every binding failed, 65 the container has no binding of a
 * pin this knows, 66 the header cannot be read or the usage is wrong
 * (above cryptsetup's own statuses, which the init reads too).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clevis/pin.h"
#include "clevis/tang.h"
#include "clevis/tang_shares.h"
#include "clevis/token.h"

#define PASSPHRASE_MAX 1024

enum { EXIT_FAILED = 64, EXIT_NO_BINDING = 65, EXIT_NO_HEADER = 66 };

#define TANG_TOKENS_MAX 32   /* a LUKS2 header has 32 tokens */

struct unlock {
	const char *device;
	char **command;          /* NULL: the passphrase to stdout */
	int status;              /* the command's exit status */
	int timeout_ms;
	int tried;
	/* The tokens of pin tang, kept for last and then asked at once. */
	struct clevis_jwe tang[TANG_TOKENS_MAX];
	int tang_id[TANG_TOKENS_MAX];
	size_t n_tang;
};

/* Write the passphrase to command's standard input (or ours when there
 * is none); returns the command's exit status. */
static int hand_over(char **command, const unsigned char *pass, size_t len)
{
	sigset_t term, before;
	int fd[2], status = -1;   /* not an exit status until waitpid gives one */
	pid_t pid;
	bool ok;

	if (!command)
		return write(STDOUT_FILENO, pass, len) == (ssize_t)len ? 0 : EXIT_FAILED;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return EXIT_FAILED;
	/* From here the container may be opening. The init ends a binding
	 * tried behind the prompt with a SIGTERM to its process group when a
	 * passphrase was typed (blockstack/lukstang_retry.c); the command has
	 * a group of its own so that it is not cut off mid-activation, and
	 * this waits for it with SIGTERM held. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &before);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		sigprocmask(SIG_SETMASK, &before, NULL);
		dup2(fd[0], STDIN_FILENO);
		execv(command[0], command);
		_exit(127);
	}
	close(fd[0]);
	/* A passphrase fits the pipe: the write does not wait for the reader. */
	ok = pid > 0 && write(fd[1], pass, len) == (ssize_t)len;
	close(fd[1]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	status = ok && WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILED;
	/* Not opened: the next binding may be tried, and a SIGTERM held
	 * meanwhile ends this now. Opened: it stays held until the exit. */
	if (status != 0)
		sigprocmask(SIG_SETMASK, &before, NULL);
	return status;
}

/* Say what opened it (token id; url: its Tang server's, or NULL), then
 * hand the passphrase over. */
static int opened(struct unlock *u, int id, const char *url, const char *used,
		  unsigned char *pass, size_t len)
{
	/* The URL is the disk header's: a line break in it would forge a line. */
	if (url && strpbrk(url, "\r\n"))
		url = NULL;
	fprintf(stderr, "clevis-binding: token %d%s%s\n", id, url ? ", tang server " : "",
		url ? url : "");
	fprintf(stderr, "clevis-used: %s\n", used);
	fflush(stderr);
	u->status = hand_over(u->command, pass, len);
	explicit_bzero(pass, len);
	return 1;
}

static int try_token(int id, const struct clevis_jwe *jwe, void *ctx)
{
	struct unlock *u = ctx;
	unsigned char pass[PASSPHRASE_MAX];
	char what[300], used[160];
	struct pin_env env = { .what = what, .report = stderr, .timeout_ms = u->timeout_ms };
	const char *pin = jwe_pin(jwe);
	long n;

	if (!pin_known(pin))
		return 0;
	u->tried++;
	/* Local pins first: the tang tokens wait to be asked together. */
	if (strcmp(pin, "tang") == 0 && u->n_tang < TANG_TOKENS_MAX &&
	    jwe_copy(jwe, &u->tang[u->n_tang]) == 0) {
		u->tang_id[u->n_tang++] = id;
		return 0;
	}
	snprintf(what, sizeof(what), "clevis token %d on %s", id, u->device);
	n = pin_recover(jwe, &env, pass, sizeof(pass), used, sizeof(used));
	return n < 0 ? 0 : opened(u, id, NULL, used, pass, (size_t)n);
}

/* The tang tokens, every server asked at once: the first to answer opens
 * it, the silent ones are not waited for; each that failed is said. */
static int try_tang_tokens(struct unlock *u)
{
	struct tang_share shares[TANG_TOKENS_MAX];
	int r = 0;

	for (size_t i = 0; i < u->n_tang; i++)
		shares[i].jwe = &u->tang[i];
	tang_shares_recover(shares, u->n_tang, 1, u->timeout_ms);
	for (size_t i = 0; i < u->n_tang; i++) {
		const char *url = jwe_tang_url(&u->tang[i]);

		if (shares[i].n < 0 && shares[i].n != -ECANCELED)
			fprintf(stderr, "clevis token %d on %s: %s%s%s%s\n", u->tang_id[i], u->device,
				url ? "tang server " : "", url ? url : "", url ? ": " : "", shares[i].why);
	}
	for (size_t i = 0; i < u->n_tang && r == 0; i++)
		if (shares[i].n >= 0)
			r = opened(u, u->tang_id[i], jwe_tang_url(&u->tang[i]), "tang",
				   shares[i].plain, (size_t)shares[i].n);
	explicit_bzero(shares, sizeof(shares));
	return r;
}

static int list_token(int id, const struct clevis_jwe *jwe, void *ctx)
{
	const char *pin = jwe_pin(jwe), *url;
	char found[TANG_URL_MAX];

	(void)ctx;
	/* One word each: a pin or URL with blanks in it would break the line. */
	if (pin && strpbrk(pin, " \t\r\n"))
		pin = NULL;
	url = jwe_first_tang_url(jwe, found, sizeof(found));
	if (url && strpbrk(url, " \t\r\n"))
		url = NULL;
	printf("%d %s %s\n", id, pin ? pin : "-", url ? url : "-");
	return 0;
}

static int list_bindings(const char *device)
{
	char *json;
	size_t len;
	int r = token_read_json(device, &json, &len);

	if (r < 0) {
		fprintf(stderr, "clevis: the LUKS2 header of %s cannot be read\n", device);
		return EXIT_NO_HEADER;
	}
	token_foreach_clevis(json, len, list_token, NULL);
	free(json);
	return 0;
}

int main(int argc, char **argv)
{
	struct unlock u = { 0 };
	char *json;
	size_t len;
	int r;

	signal(SIGPIPE, SIG_IGN);
	/* libtss2 logs a TPM's refusal itself; the one line per binding says it. */
	setenv("TSS2_LOG", "all+none", 1);
	if (argc == 3 && strcmp(argv[1], "--list") == 0)
		return list_bindings(argv[2]);
	if (argc < 3 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: lifeboat-clevis DEVICE SECONDS [COMMAND ARG...]\n");
		return EXIT_NO_HEADER;
	}
	u.device = argv[1];
	u.timeout_ms = atoi(argv[2]) * 1000;
	u.command = argc > 3 ? argv + 3 : NULL;
	r = token_read_json(u.device, &json, &len);
	if (r < 0) {
		fprintf(stderr, "clevis: the LUKS2 header of %s cannot be read (%s)\n", u.device,
			r == -EINVAL ? "not LUKS2, or both copies damaged" : strerror(-r));
		return EXIT_NO_HEADER;
	}
	r = token_foreach_clevis(json, len, try_token, &u);
	free(json);
	if (r != 1 && u.n_tang)
		r = try_tang_tokens(&u);
	for (size_t i = 0; i < u.n_tang; i++)
		jwe_free(&u.tang[i]);
	if (r == 1)
		return u.status;
	return u.tried ? EXIT_FAILED : EXIT_NO_BINDING;
}
