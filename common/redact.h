/* redact: kernel command lines and root paths with their secrets (iSCSI
 * CHAP) replaced, for every log, report and file that may be read by others.
 *
 * The decision is made on each word as the init's parser reads it
 * (common/cmdwords.h: quotes removed wherever they are), so
 * `"rd.iscsi.password=x"` and `rd.iscsi.pass""word=x` are secrets as the
 * parser uses them. The secrets are:
 *   rd.iscsi.password=VALUE, rd.iscsi.in.password=VALUE: the whole value;
 *   root=, netroot= iscsi:USER:PASSWORD[:INUSER:INPASSWORD]@...: everything
 *   between "iscsi:" and the last '@' (net/iscsi/rfc4173.c reads it so).
 * A secret becomes "*"; every other byte of the text is kept as it was. */
#ifndef LIFEBOAT_REDACT_H
#define LIFEBOAT_REDACT_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the value of a root path (root=, netroot=, DHCP's root-path)
 * holds iscsi:CREDENTIALS@: their offset and length in value. */
bool redact_path_creds(const char *value, size_t *start, size_t *len);
/* value with iscsi:CREDENTIALS@ as iscsi:*@, into out (cut at size). */
bool redact_path(const char *value, char *out, size_t size);
/* value without CREDENTIALS@ at all, into out (cut at size): a root path
 * that still names the target, and holds no byte a shell would expand. */
bool redact_path_strip(const char *value, char *out, size_t size);
/* The secret of one parsed word (text, as cmdwords gives it): its offset and
 * length; false if it has none. */
bool redact_word_secret(const char *text, size_t *start, size_t *len);
/* cmdline with each secret replaced by "*", into out (cut at size). Returns
 * whether there was one. */
bool redact_cmdline(const char *cmdline, char *out, size_t size);
/* Whether cmdline has such a secret. */
bool redact_has_secrets(const char *cmdline);
/* text (len bytes, several lines: a log, a configuration file) with each
 * line redacted as a command line, in a new buffer of *out_len bytes (NULL
 * when out of memory); *found says whether there was a secret. */
char *redact_lines(const char *text, size_t len, size_t *out_len, bool *found);

#endif
