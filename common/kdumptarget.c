/* kdumptarget: one place to save a dump and the files only it uses (WHERE[;KEY=FILE]...). */
#include "common/kdumptarget.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Each file a target may name, and the URL schemes it serves. */
static const struct target_file {
	const char *key;
	size_t offset;
	const char *schemes[2];
	const char *misfit;
} target_files[TARGET_FILES] = {
	[TARGET_CAFILE] = { "cafile", offsetof(struct kdump_target, cafile), { "https", NULL },
			    "cafile= is for https:// targets only" },
	[TARGET_SSHKEY] = { "sshkey", offsetof(struct kdump_target, sshkey), { "sftp", NULL },
			    "sshkey= is for sftp:// targets only" },
	[TARGET_KNOWNHOSTS] = { "knownhosts", offsetof(struct kdump_target, knownhosts), { "sftp", NULL },
				"knownhosts= is for sftp:// targets only" },
};

const char *kdump_target_file_key(enum kdump_target_file f)
{
	return target_files[f].key;
}

char *kdump_target_file(struct kdump_target *t, enum kdump_target_file f)
{
	return (char *)t + target_files[f].offset;
}

bool kdump_target_is(const char *where, const char *scheme)
{
	size_t n = strlen(scheme);

	return strncmp(where, scheme, n) == 0 && strncmp(where + n, "://", 3) == 0;
}

static bool file_suits(const struct target_file *f, const char *where)
{
	for (size_t i = 0; i < sizeof(f->schemes) / sizeof(f->schemes[0]); i++)
		if (f->schemes[i] && kdump_target_is(where, f->schemes[i]))
			return true;
	return false;
}

/* USER:PASSWORD@ in a URL: the password would be in every log line that
 * names the target. */
static bool url_has_password(const char *where)
{
	const char *auth = strstr(where, "://");
	size_t len;

	if (!auth)
		return false;
	auth += 3;
	len = strcspn(auth, "/");
	for (const char *at = auth + len; at > auth; at--)
		if (at[-1] == '@')
			return memchr(auth, ':', (size_t)(at - 1 - auth)) != NULL;
	return false;
}

static int set_file(struct kdump_target *t, const char *item, size_t len, const char **why)
{
	const char *eq = memchr(item, '=', len);

	for (size_t i = 0; eq && i < TARGET_FILES; i++) {
		const struct target_file *f = &target_files[i];
		char *field = (char *)t + f->offset;
		size_t vlen = len - (size_t)(eq + 1 - item);

		if (strlen(f->key) != (size_t)(eq - item) || strncmp(item, f->key, strlen(f->key)) != 0)
			continue;
		if (!file_suits(f, t->where))
			*why = f->misfit;
		else if (vlen == 0)
			*why = "a file name is missing after '='";
		else if (field[0])
			*why = "a file is given twice";
		else if (vlen >= KDUMP_FILE_MAX)
			*why = "a file name is too long";
		else {
			snprintf(field, KDUMP_FILE_MAX, "%.*s", (int)vlen, eq + 1);
			return 0;
		}
		return -EINVAL;
	}
	*why = "unknown setting after ';' (cafile=FILE, sshkey=FILE, knownhosts=FILE)";
	return -EINVAL;
}

static int check_where(const struct kdump_target *t, const char **why)
{
	if (!t->where[0])
		*why = "no place before ';'";
	else if (url_has_password(t->where))
		*why = "a password in the URL would show in the logs; put it in a netrc file "
		       "(--kdump-options netrc=FILE)";
	else if (kdump_target_is(t->where, "scp"))
		*why = "scp cannot send a dump: it needs each file's size before sending it, and the "
		       "dump is streamed as it is made; use sftp:// (the same server and key)";
	else if (kdump_target_is(t->where, "sftp") && !t->knownhosts[0])
		*why = "sftp:// targets need knownhosts=FILE (the server's host key, as "
		       "ssh-keyscan prints it): without it any server could take the dump";
	else
		return 0;
	return -EINVAL;
}

int kdump_target_parse(const char *text, struct kdump_target *t, const char **why)
{
	size_t len = strcspn(text, ";");

	memset(t, 0, sizeof(*t));
	if (len >= sizeof(t->where)) {
		*why = "the place is too long";
		return -EINVAL;
	}
	memcpy(t->where, text, len);
	for (text += len; *text == ';';) {
		text++;
		len = strcspn(text, ";");
		if (set_file(t, text, len, why) < 0)
			return -EINVAL;
		text += len;
	}
	return check_where(t, why);
}

int kdump_target_format(const struct kdump_target *t, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%s", t->where);

	for (size_t i = 0; i < TARGET_FILES && n < size; i++) {
		const char *file = (const char *)t + target_files[i].offset;

		if (file[0])
			n += (size_t)snprintf(out + n, size - n, ";%s=%s", target_files[i].key, file);
	}
	return n < size ? 0 : -ENAMETOOLONG;
}
