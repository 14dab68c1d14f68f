/* kdumptarget: one place to save a dump, as --kdump-target and the image's
 * kdump.conf give it: WHERE[;KEY=FILE]...
 *
 * WHERE is a device (UUID=|LABEL=|/dev/...[:/DIR]), an NFS export or a URL;
 * each KEY=FILE names a file only that target uses: cafile= (https: the CA
 * to trust instead of the image's bundle), sshkey= and knownhosts= (sftp:
 * the private key and the server's host keys). On the command line
 * the files are the host's; the generator copies each into the image and
 * writes the copies' paths into kdump.conf. */
#ifndef LIFEBOAT_KDUMPTARGET_H
#define LIFEBOAT_KDUMPTARGET_H

#include <stdbool.h>
#include <stddef.h>

#define KDUMP_SPEC_MAX 512
#define KDUMP_FILE_MAX 256

struct kdump_target {
	char where[KDUMP_SPEC_MAX];
	char cafile[KDUMP_FILE_MAX];      /* https: the CA to trust; "" the image's CA bundle */
	char sshkey[KDUMP_FILE_MAX];      /* sftp: the private key; "" netrc's password */
	char knownhosts[KDUMP_FILE_MAX];  /* sftp: the server's host keys (required) */
};

/* The files a target may name, for callers that handle each in turn. */
enum kdump_target_file { TARGET_CAFILE, TARGET_SSHKEY, TARGET_KNOWNHOSTS, TARGET_FILES };

/* Parse WHERE[;KEY=FILE]... into t. Returns 0, or -EINVAL with in *why what
 * is wrong, for a message: an unknown key, a file that does not suit the
 * target's kind, sftp without knownhosts=, scp, a password in the URL, a
 * name too long. */
int kdump_target_parse(const char *text, struct kdump_target *t, const char **why);
/* The text kdump_target_parse reads back. Returns 0 or -ENAMETOOLONG. */
int kdump_target_format(const struct kdump_target *t, char *out, size_t size);
/* Whether where is a URL of that scheme ("https", "sftp"). */
bool kdump_target_is(const char *where, const char *scheme);
/* The key of a file ("cafile") and the field that holds it in t. */
const char *kdump_target_file_key(enum kdump_target_file f);
char *kdump_target_file(struct kdump_target *t, enum kdump_target_file f);

#endif
