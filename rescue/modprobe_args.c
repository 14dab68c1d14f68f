/* modprobe_args: what lifeboat's modprobe is asked to do, from its arguments. */
#include "rescue/modprobe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The options, long and short; those without a field have no effect. */
struct modprobe_option {
	char letter;
	const char *name;
	size_t field;   /* offsetof the bool it sets, or NO_FIELD */
};

#define NO_FIELD ((size_t)-1)

static const struct modprobe_option modprobe_options[] = {
	{ 'a', "all", NO_FIELD },          /* every argument names a module */
	{ 'r', "remove", offsetof(struct modprobe_request, remove) },
	{ 'q', "quiet", offsetof(struct modprobe_request, quiet) },
	{ 'h', "help", offsetof(struct modprobe_request, help) },
	/* Accepted for scripts written for kmod's modprobe: messages go to
	 * stderr anyway, and the blacklists always apply. */
	{ 'v', "verbose", NO_FIELD },
	{ 's', "syslog", NO_FIELD },
	{ 'b', "use-blacklist", NO_FIELD },
};

#define N_OPTIONS (sizeof(modprobe_options) / sizeof(modprobe_options[0]))

/* Set what option o means; -a is kept in *all. */
static void option_apply(const struct modprobe_option *o, struct modprobe_request *req,
			 bool *all)
{
	if (o->letter == 'a')
		*all = true;
	else if (o->field != NO_FIELD)
		*(bool *)((char *)req + o->field) = true;
}

static const struct modprobe_option *option_by_letter(char c)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (modprobe_options[i].letter == c)
			return &modprobe_options[i];
	return NULL;
}

static const struct modprobe_option *option_by_name(const char *name)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (strcmp(modprobe_options[i].name, name) == 0)
			return &modprobe_options[i];
	return NULL;
}

/* One argument that starts with '-': "--name" or joined letters. */
static int option_word(const char *arg, struct modprobe_request *req, bool *all, char *err,
		       size_t errsize)
{
	const struct modprobe_option *o;

	if (arg[1] == '-') {
		o = option_by_name(arg + 2);
		if (!o) {
			snprintf(err, errsize, "unknown option %s", arg);
			return -EINVAL;
		}
		option_apply(o, req, all);
		return 0;
	}
	for (const char *c = arg + 1; *c; c++) {
		o = option_by_letter(*c);
		if (!o) {
			snprintf(err, errsize, "unknown option -%c", *c);
			return -EINVAL;
		}
		option_apply(o, req, all);
	}
	return 0;
}

/* The words that are not options: names, or one name and its parameters. */
static int words_sort(char *const words[], size_t n, bool all, struct modprobe_request *req)
{
	for (size_t i = 0; i < n; i++) {
		struct strv *to = (i == 0 || all || req->remove) ? &req->names : &req->params;

		if (strv_push(to, words[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

int modprobe_parse(int argc, char *const argv[], struct modprobe_request *req, char *err,
		   size_t errsize)
{
	bool all = false;
	int i = 1, r;

	memset(req, 0, sizeof(*req));
	err[0] = '\0';
	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		r = option_word(argv[i], req, &all, err, errsize);
		if (r < 0)
			return r;
	}
	r = words_sort(argv + i, (size_t)(argc - i), all, req);
	if (r < 0) {
		snprintf(err, errsize, "out of memory");
		return r;
	}
	if (req->names.len == 0 && !req->help) {
		snprintf(err, errsize, "no module named");
		return -EINVAL;
	}
	return 0;
}

void modprobe_request_free(struct modprobe_request *req)
{
	strv_free(&req->names);
	strv_free(&req->params);
}

int modprobe_name_of(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	const char *ko;
	size_t n;

	base = base ? base + 1 : path;
	ko = strstr(base, ".ko");
	if (!ko || ko == base || (ko[3] != '\0' && ko[3] != '.'))
		return -EINVAL;
	n = (size_t)(ko - base);
	if (n >= size)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = '\0';
	return 0;
}
