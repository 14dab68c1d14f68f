/* kdumpconf: the capture settings the generator writes into the image (/etc/lifeboat/kdump.conf) and the capture init reads. */
#include "common/kdumpconf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const action_names[] = {
	[ACTION_REBOOT] = "reboot", [ACTION_POWEROFF] = "poweroff", [ACTION_SHELL] = "shell",
};

int kdump_conf_action_parse(const char *name, enum kdump_action *out)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (strcmp(name, action_names[i]) == 0) {
			*out = (enum kdump_action)i;
			return 0;
		}
	return -EINVAL;
}

static const char *const compress_names[] = { [COMPRESS_ZLIB] = "zlib", [COMPRESS_LZO] = "lzo",
						     [COMPRESS_ZSTD] = "zstd" };

int kdump_conf_compress_parse(const char *name, enum kdump_compress *out)
{
	for (size_t i = 0; i < sizeof(compress_names) / sizeof(compress_names[0]); i++)
		if (strcmp(name, compress_names[i]) == 0) {
			*out = (enum kdump_compress)i;
			return 0;
		}
	return -EINVAL;
}

const char *kdump_conf_compress_name(enum kdump_compress c)
{
	return (size_t)c < sizeof(compress_names) / sizeof(compress_names[0]) ? compress_names[c] : "?";
}

void kdump_conf_init(struct kdump_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->level = 31;
	c->formats = FORMAT_KDUMP;
	c->compress = COMPRESS_LZO;
	c->action = ACTION_REBOOT;
	c->failure_action = ACTION_DEFAULT;
}

static int set_target(struct kdump_conf *c, const char *v)
{
	const char *why;

	if (c->ntargets == KDUMP_TARGETS_MAX || kdump_target_parse(v, &c->targets[c->ntargets], &why) < 0)
		return -EINVAL;
	c->ntargets++;
	return 0;
}

static int set_level(struct kdump_conf *c, const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (*v < '0' || *v > '9' || *end || n > 31)
		return -EINVAL;
	c->level = (unsigned)n;
	return 0;
}

static int set_formats(struct kdump_conf *c, const char *v)
{
	char buf[64], *save = NULL;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, v);
	c->formats = 0;
	for (char *w = strtok_r(buf, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
		if (strcmp(w, "kdump") == 0)
			c->formats |= FORMAT_KDUMP;
		else if (strcmp(w, "elf") == 0)
			c->formats |= FORMAT_ELF;
		else
			return -EINVAL;
	}
	return c->formats ? 0 : -EINVAL;
}

static int set_compress(struct kdump_conf *c, const char *v)
{
	return kdump_conf_compress_parse(v, &c->compress);
}

static int set_action(struct kdump_conf *c, const char *v)
{
	return kdump_conf_action_parse(v, &c->action);
}

static int set_failure_action(struct kdump_conf *c, const char *v)
{
	return kdump_conf_action_parse(v, &c->failure_action);
}

static const struct conf_key {
	const char *name;
	int (*set)(struct kdump_conf *c, const char *value);
} conf_keys[] = {
	{ "target", set_target },
	{ "level", set_level },
	{ "format", set_formats },
	{ "compress", set_compress },
	{ "action", set_action },
	{ "failure_action", set_failure_action },
};

static int conf_line(struct kdump_conf *c, char *line)
{
	char *key = line + strspn(line, " \t"), *value;
	size_t klen = strcspn(key, " \t");

	if (*key == '\0' || *key == '#')
		return 0;
	value = key + klen;
	value += strspn(value, " \t");
	key[klen] = '\0';
	for (size_t end = strlen(value); end > 0 && (value[end - 1] == ' ' || value[end - 1] == '\t'); end--)
		value[end - 1] = '\0';
	for (size_t i = 0; i < sizeof(conf_keys) / sizeof(conf_keys[0]); i++)
		if (strcmp(key, conf_keys[i].name) == 0)
			return *value ? conf_keys[i].set(c, value) : -EINVAL;
	return -EINVAL;
}

int kdump_conf_parse(const char *text, struct kdump_conf *c, int *bad_line)
{
	/* The longest line: a target with every file. */
	char line[KDUMP_SPEC_MAX + TARGET_FILES * (KDUMP_FILE_MAX + 16)];
	int n = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");

		n++;
		if (len >= sizeof(line) || (snprintf(line, sizeof(line), "%.*s", (int)len, text),
					    conf_line(c, line) < 0)) {
			*bad_line = n;
			return -EINVAL;
		}
		text += len + (text[len] == '\n');
	}
	return 0;
}
