/* ssh_pack: an SSH server in the image for unlocking and the rescue (--ssh).
 *
 * Debian's dropbear with its libraries; root's authorized keys, checked
 * line by line (gen/host/authkeys.h); a host key of the image's own, made
 * once on the build host with dropbearkey and reused by every build, so
 * the fingerprint a client remembers stays the same (and is not the
 * system's host key: the image lies unencrypted in /boot); lifeboat-login
 * as root's shell. The init starts the server when the network is up
 * (remote/, docs/remote.md). */
#include "gen/feature/feature.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileread.h"
#include "common/layout.h"
#include "gen/elf/program.h"
#include "gen/gen_report.h"
#include "gen/host/authkeys.h"
#include "gen/host/hostrun.h"

#define DROPBEAR_HOST "/usr/sbin/dropbear"
#define DROPBEARKEY "/usr/bin/dropbearkey"
#define KEYS_DEFAULT "/etc/lifeboat/authorized_keys"
#define HOST_KEY_DEFAULT "/etc/lifeboat/ssh_host_ed25519_key"
#define KEYS_FILE_MAX (1 << 20)
/* dropbearkey prints a few lines: a key, a fingerprint, a message. */
#define DROPBEARKEY_OUT_MAX (64 * 1024)

static bool ssh_pack_wanted(const struct build_ctx *c)
{
	return c->opts->ssh;
}

/* --ssh-authorized-keys, else /etc/lifeboat/authorized_keys, else root's. */
static void keys_path(const struct build_opts *o, char *out, size_t size)
{
	const struct passwd *root;

	if (o->ssh_authorized_keys) {
		snprintf(out, size, "%s", o->ssh_authorized_keys);
		return;
	}
	root = getpwnam("root");
	if (access(KEYS_DEFAULT, F_OK) == 0 || !root)
		snprintf(out, size, "%s", KEYS_DEFAULT);
	else
		snprintf(out, size, "%s/.ssh/authorized_keys", root->pw_dir);
}

/* The usable lines of text into keep (each with its newline); the others
 * are reported with their line number. Returns how many were kept. */
static size_t keep_usable(const char *path, const char *text, size_t len, char *keep,
			  size_t *kept_len)
{
	size_t kept = 0, line = 0;

	*kept_len = 0;
	for (size_t at = 0; at < len; line++) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		struct authkey_check ck;

		authkeys_check_line(text + at, n, &ck);
		if (ck.verdict == AUTHKEY_USABLE) {
			memcpy(keep + *kept_len, text + at, n);
			*kept_len += n;
			keep[(*kept_len)++] = '\n';
			kept++;
		} else if (ck.verdict != AUTHKEY_EMPTY) {
			gen_warn("--ssh: %s line %zu is left out: %s%s%s", path, line + 1,
				 authkeys_verdict_text(ck.verdict), ck.option[0] ? ": " : "", ck.option);
		}
		at += n + 1;
	}
	return kept;
}

static int add_authorized_keys(const struct build_opts *o, struct image *img)
{
	char path[PATH_MAX];
	size_t len = 0, kept_len = 0, kept = 0;
	char *text = NULL, *keep = malloc(KEYS_FILE_MAX + 1);
	int r = keep ? 0 : -ENOMEM;

	keys_path(o, path, sizeof(path));
	if (r == 0 && (r = file_read_all(path, KEYS_FILE_MAX - 1, &text, &len)) < 0)
		gen_error("--ssh: reading the authorized keys %s failed: %s; give the keys that may "
			  "log in with --ssh-authorized-keys FILE", path, strerror(-r));
	if (r == 0)
		kept = keep_usable(path, text, len, keep, &kept_len);
	if (r == 0 && kept == 0) {
		gen_error("--ssh: %s has no key dropbear accepts, so no one could log in; add a "
			  "public key line (ssh-ed25519 AAAA...) or give --ssh-authorized-keys FILE",
			  path);
		r = -EINVAL;
	}
	if (r == 0)
		r = image_add_dir(img, "/root/.ssh", 0700);
	if (r == 0)
		r = image_add_data(img, LAYOUT_SSH_AUTHORIZED_KEYS, keep, kept_len, 0600);
	if (r == 0)
		gen_info("ssh: %zu authorized key%s from %s", kept, kept == 1 ? "" : "s", path);
	free(text);
	free(keep);
	return r;
}

/* dropbearkey's output with its messages, for the error that quotes them. */
static int dropbearkey_run(const char *const argv[], char **out)
{
	const struct hostrun_io io = { .max = DROPBEARKEY_OUT_MAX, .with_stderr = true };
	size_t len;

	return hostrun_run(argv, &io, out, &len);
}

/* Made once: every later build reuses it, so the fingerprint stays. */
static int host_key_make(const char *path)
{
	const char *const argv[] = { DROPBEARKEY, "-t", "ed25519", "-f", path, NULL };
	char *out = NULL;
	int r = dropbearkey_run(argv, &out);

	if (r != 0)
		gen_error("--ssh: %s could not make the host key %s (%s): %s; install "
			  "dropbear-bin, or give --ssh-host-key FILE", DROPBEARKEY, path,
			  r < 0 ? strerror(-r) : "it failed", r < 0 ? "" : out);
	if (r >= 0)
		free(out);
	if (r != 0)
		return r < 0 ? r : -EIO;
	gen_info("ssh: made the image's host key %s", path);
	return 0;
}

/* "ssh-ed25519 SHA256:..." from dropbearkey -y's "Public key portion"
 * and "Fingerprint:" lines. */
static int host_key_fingerprint(const char *path, char *out, size_t size)
{
	const char *const argv[] = { DROPBEARKEY, "-y", "-f", path, NULL };
	char *text = NULL, type[64] = "", *save = NULL;
	const char *fp = NULL;
	int r = dropbearkey_run(argv, &text);

	for (char *line = r == 0 ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "ssh-", 4) == 0 || strncmp(line, "ecdsa-", 6) == 0)
			snprintf(type, sizeof(type), "%.*s", (int)strcspn(line, " "), line);
		if (strncmp(line, "Fingerprint: ", 13) == 0)
			fp = line + 13;
	}
	if (!fp || !type[0]) {
		gen_error("--ssh: %s -y -f %s did not print the key's fingerprint%s%s", DROPBEARKEY,
			  path, r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
		if (r >= 0)
			free(text);
		return -EIO;
	}
	snprintf(out, size, "%s %s", type, fp);
	free(text);
	return 0;
}

static int add_host_key(struct build_ctx *c)
{
	const char *path = c->opts->ssh_host_key ? c->opts->ssh_host_key : HOST_KEY_DEFAULT;
	struct stat st;
	int r = 0;

	if (stat(path, &st) < 0 && errno == ENOENT) {
		if (!c->opts->ssh_host_key)
			mkdir("/etc/lifeboat", 0755);
		r = host_key_make(path);
	}
	if (r == 0 && stat(path, &st) < 0) {
		r = -errno;
		gen_error("--ssh: the host key %s: %s", path, strerror(-r));
	}
	if (r == 0 && (st.st_mode & 077)) {
		gen_error("--ssh: the host key %s is readable by others (mode %03o); chmod 600 it "
			  "(and make a new one if others may have read it)", path,
			  (unsigned int)(st.st_mode & 0777));
		r = -EPERM;
	}
	if (r == 0)
		r = host_key_fingerprint(path, c->ssh_host_key, sizeof(c->ssh_host_key));
	if (r == 0)
		r = image_add_file(c->img, path, LAYOUT_SSH_HOST_KEY, 0600);
	if (r == 0)
		gen_info("ssh: host key %s: %s", path, c->ssh_host_key);
	return r;
}

/* root, whose shell is lifeboat-login (dropbear checks it is in /etc/shells). */
static int add_account(struct image *img)
{
	static const char passwd[] = "root:x:0:0:root:/root:" LAYOUT_SSH_LOGIN "\n";
	static const char group[] = "root:x:0:\n";
	static const char shells[] = LAYOUT_SSH_LOGIN "\n";
	int r = image_add_data(img, "/etc/passwd", passwd, strlen(passwd), 0644);

	if (r == 0)
		r = image_add_data(img, "/etc/group", group, strlen(group), 0644);
	if (r == 0)
		r = image_add_data(img, "/etc/shells", shells, strlen(shells), 0644);
	return r;
}

static int add_programs(struct image *img)
{
	char login[PATH_MAX];
	int r;

	if (access(DROPBEAR_HOST, R_OK) < 0) {
		gen_error("--ssh: %s not found; install dropbear-bin", DROPBEAR_HOST);
		return -ENOENT;
	}
	r = program_add(img, DROPBEAR_HOST, LAYOUT_DROPBEAR);
	if (r == 0)
		r = program_find_own("lifeboat-login", login, sizeof(login));
	if (r == 0)
		r = program_add(img, login, LAYOUT_SSH_LOGIN);
	return r;
}

/* --ssh-port: the init's default before the kernel's rd.ssh.port=. */
static int add_port(const struct build_opts *o, struct image *img)
{
	char line[64];

	if (!o->ssh_port)
		return 0;
	snprintf(line, sizeof(line), "rd.ssh.port=%u\n", o->ssh_port);
	return image_add_data(img, LAYOUT_CMDLINE_SSH, line, strlen(line), 0644);
}

static int ssh_pack_add_files(struct build_ctx *c)
{
	int r = add_authorized_keys(c->opts, c->img);

	if (r == 0)
		r = add_host_key(c);
	if (r == 0)
		r = add_programs(c->img);
	if (r == 0)
		r = add_account(c->img);
	if (r == 0)
		r = add_port(c->opts, c->img);
	return r;
}

const struct feature ssh_pack_feature = {
	.name = "ssh",
	.wanted = ssh_pack_wanted,
	.add_files = ssh_pack_add_files,
};
