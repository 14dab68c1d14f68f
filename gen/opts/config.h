/* config: the "key = value" configuration files of the generator. */
#ifndef LIFEBOAT_CONFIG_H
#define LIFEBOAT_CONFIG_H

#include <stddef.h>

#define CONFIG_FILE "/etc/lifeboat.conf"
#define CONFIG_DIR "/etc/lifeboat.conf.d"

/* Called for each setting; a non-zero return stops parsing and is returned. */
typedef int (*config_fn)(const char *key, const char *value, const char *file,
			 unsigned int line, void *ctx);

/* Parse text: one "key = value" a line; blank lines and lines starting with
 * '#' are ignored; spaces around key and value are trimmed; a value may be
 * wrapped in double quotes (which are removed). A line without '=' is an
 * error reported with the file and line number (-EINVAL). */
int config_parse(const char *text, size_t len, const char *file, config_fn fn, void *ctx);
/* config_parse() on a file. A missing file is not an error when optional. */
int config_parse_file(const char *path, int optional, config_fn fn, void *ctx);
/* The system configuration: CONFIG_FILE, then CONFIG_DIR/STAR.conf in name order
 * (later files win). */
int config_load_system(const char *root, config_fn fn, void *ctx);

#endif
