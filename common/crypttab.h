/* crypttab: lines of /etc/crypttab (crypttab(5)), read by the generator on
 * the host and by the init in the image. */
#ifndef LIFEBOAT_CRYPTTAB_H
#define LIFEBOAT_CRYPTTAB_H

#include <stdbool.h>
#include <stddef.h>

#define CRYPTTAB_FIELD_MAX 256

/* NAME SOURCE [KEYFILE [OPTIONS]], separated by blanks. */
struct crypttab_entry {
	char name[CRYPTTAB_FIELD_MAX];
	char source[CRYPTTAB_FIELD_MAX];   /* UUID=, PARTUUID=, LABEL=, /dev/... */
	char keyfile[CRYPTTAB_FIELD_MAX];  /* "none" when absent or "-" */
	char options[CRYPTTAB_FIELD_MAX];  /* "" when absent */
};

/* Parse one line (without or with its newline). Returns 1 with e filled,
 * 0 for a blank or comment line, -EINVAL for a line without a SOURCE, a
 * fifth field or a NAME with '/', -ENAMETOOLONG for a field too long. */
int crypttab_parse_line(const char *line, struct crypttab_entry *e);
/* Whether the key file field names a file (not none, -, or a device such
 * as /dev/urandom that makes a plain swap). */
bool crypttab_has_keyfile(const struct crypttab_entry *e);
/* The UUID a source names (UUID=X or /dev/disk/by-uuid/X) into uuid;
 * false for other sources. */
bool crypttab_source_uuid(const char *source, char *uuid, size_t size);
/* The 32 hex digits of a UUID, lower case, into hex (33 bytes); false
 * when it does not have exactly 32 (any separators are skipped). */
bool crypttab_uuid_hex(const char *uuid, char hex[33]);
/* Two UUIDs are the same when their hex digits are (case and separators aside). */
bool crypttab_uuid_equal(const char *a, const char *b);

#endif
