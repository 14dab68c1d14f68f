/* bootargs: gather the command line from the image and from the kernel. */
#include "init/bootargs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"

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
	if (r < 0)
		log_warn("%s: a parameter has a bad value (%s); it was ignored", path, strerror(-r));
	return r;
}

static int is_conf(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 5 && strcmp(de->d_name + n - 5, ".conf") == 0;
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
	return first ? first : r;
}
