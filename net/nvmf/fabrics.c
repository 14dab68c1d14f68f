/* fabrics: connect and delete NVMe over Fabrics controllers through the kernel. */
#include "net/nvmf/fabrics.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/filewrite.h"

/* What the kernel's match_token() would split or misread: its options are
 * comma-separated key=value pairs, and it strips nothing. */
static bool value_ok(const char *v)
{
	for (; *v; v++)
		if (*v == ',' || *v == '=' || (unsigned char)*v <= ' ' || *v == 0x7f)
			return false;
	return true;
}

struct field {
	const char *key;
	const char *value;
	bool required;
};

/* Append ",key=value" (no comma first) to out at *len. */
static int field_add(const struct field *f, char *out, size_t size, size_t *len)
{
	int n;

	if (!f->value[0] && !f->required)
		return 0;
	if (!f->value[0] || !value_ok(f->value))
		return -EINVAL;
	n = snprintf(out + *len, size - *len, "%s%s=%s", *len ? "," : "", f->key, f->value);
	if (n < 0 || (size_t)n >= size - *len)
		return -ENAMETOOLONG;
	*len += (size_t)n;
	return 0;
}

int nvmf_fabrics_options(const struct nvmf_fabrics_host *host,
			 const struct nvmf_fabrics_target *t, char *out, size_t size,
			 const char **what)
{
	/* The kernel's order does not matter; nvme-cli's is kept for reading. */
	const struct field fields[] = {
		{ "nqn", t->nqn, true },
		{ "transport", "tcp", true },
		{ "traddr", t->traddr, true },
		{ "trsvcid", t->trsvcid, true },
		{ "hostnqn", host->nqn, true },
		{ "hostid", host->id, false },
		{ "host_traddr", t->host_traddr, false },
		{ "host_iface", t->host_iface, false },
	};
	size_t len = 0;
	int r = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (size_t i = 0; r == 0 && i < sizeof(fields) / sizeof(fields[0]); i++) {
		r = field_add(&fields[i], out, size, &len);
		if (r < 0 && what)
			*what = fields[i].key;
	}
	if (r < 0)
		out[0] = '\0';
	return r;
}

/* A decimal number at *p up to a non-digit, into *v (no sign, no overflow). */
static bool number_take(const char **p, long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtol(*p, &end, 10);
	if (errno || *v > 0x7fffffff)
		return false;
	*p = end;
	return true;
}

int nvmf_fabrics_parse_answer(const char *answer, int *instance)
{
	const char *p = answer;
	long n, cntlid;

	if (strncmp(p, "instance=", 9) != 0)
		return -EINVAL;
	p += 9;
	if (!number_take(&p, &n) || strncmp(p, ",cntlid=", 8) != 0)
		return -EINVAL;
	p += 8;
	if (!number_take(&p, &cntlid) || (*p && strcmp(p, "\n") != 0))
		return -EINVAL;
	*instance = (int)n;
	return 0;
}

int nvmf_fabrics_connect(const char *dev, const char *options, int *instance)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	/* One write: the kernel parses what one write gives it. */
	r = file_write_fd(fd, options, strlen(options));
	if (r == 0) {
		char answer[128];
		ssize_t got = read(fd, answer, sizeof(answer) - 1);

		if (got < 0)
			r = -errno;
		else {
			answer[got] = '\0';
			r = nvmf_fabrics_parse_answer(answer, instance) < 0 ? -EPROTO : 0;
		}
	}
	close(fd);
	return r;
}

int nvmf_fabrics_delete(const char *class_dir, int instance)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/nvme%d/delete_controller", class_dir, instance);
	return file_write_value(path, "1");
}
