/* bootargs: gather the command line from the image and from the kernel. */
#include "init/bootargs.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "common/redact.h"

static int apply_file(const char *path, struct boot_args *args)
{
	char line[CMDLINE_MAX];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int r;

	if (fd < 0)
		return -errno;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	line[n] = '\0';
	r = cmdline_parse(line, args);
	explicit_bzero(line, sizeof(line));   /* it may hold CHAP secrets */
	if (r == -ERANGE)
		log_warn("%s: %s= asks for more than %u s; it was ignored", path, args->bad_param,
			 CMDLINE_TIMEOUT_MAX);
	else if (r < 0)
		log_warn("%s: %s= has a bad value (%s); it was ignored, see docs/cmdline.md "
			 "for its form", path, args->bad_param[0] ? args->bad_param : "a parameter",
			 strerror(-r));
	return r;
}

static int is_conf(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 5 && strcmp(de->d_name + n - 5, ".conf") == 0;
}

/* Remove the first environment variable holding a secret; false if none. */
static bool environ_drop_one(void)
{
	size_t start, len;

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[128];

		if (!eq || (size_t)(eq - *e) >= sizeof(name) || !redact_word_secret(*e, &start, &len))
			continue;
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = '\0';
		unsetenv(name);
		return true;
	}
	return false;
}

void bootargs_environ_clean(void)
{
	while (environ_drop_one())
		;
}

int bootargs_load(struct boot_args *args)
{
	struct dirent **names = NULL;
	int n = scandir(CMDLINE_D, &names, is_conf, alphasort);
	int first = 0;
	int r;

	for (int i = 0; i < n; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", CMDLINE_D, names[i]->d_name);
		r = apply_file(path, args);
		if (r < 0 && !first)
			first = r;
		free(names[i]);
	}
	free(names);
	r = apply_file("/proc/cmdline", args);
	bootargs_environ_clean();
	return first ? first : r;
}
