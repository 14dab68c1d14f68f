/* ibft: read the iSCSI boot firmware table's target as the kernel shows it in sysfs. */
#include "net/iscsi/ibft.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileread.h"

/* The targets the kernel may list; the first with a name is the boot one. */
#define IBFT_TARGETS 4

/* One sysfs attribute as a string without its newline; "" when absent. */
static int attr_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[512];
	ssize_t n;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* Not stdio: a CHAP secret is read into buf and nowhere else. */
	n = file_read_text(path, 0, buf, size);
	buf[strcspn(buf, "\n")] = '\0';
	return n < 0 ? (int)n : 0;
}

/* A number of the table, which the kernel prints in decimal. */
static unsigned long attr_number(const char *dir, const char *name, unsigned long max)
{
	char buf[32], *end;
	unsigned long v;

	if (attr_read(dir, name, buf, sizeof(buf)) < 0 || !buf[0])
		return 0;
	v = strtoul(buf, &end, 10);
	return *end || v > max ? 0 : v;
}

static const struct {
	const char *name;
	size_t offset;
} chap_attrs[] = {
	{ "chap-name",       offsetof(struct iscsi_chap, username) },
	{ "chap-secret",     offsetof(struct iscsi_chap, password) },
	{ "rev-chap-name",   offsetof(struct iscsi_chap, in_username) },
	{ "rev-chap-secret", offsetof(struct iscsi_chap, in_password) },
};

static int target_read(const char *tdir, struct iscsi_target *t)
{
	char addr[ISCSI_HOST_MAX];
	struct in_addr a4;
	struct in6_addr a6;

	memset(t, 0, sizeof(*t));
	if (attr_read(tdir, "target-name", t->name, sizeof(t->name)) < 0 || !t->name[0])
		return -ENOENT;
	attr_read(tdir, "ip-addr", addr, sizeof(addr));
	/* The table keeps IPv4 as an IPv4-mapped IPv6 address; the kernel
	 * prints it as IPv4 already. */
	if (inet_pton(AF_INET6, addr, &a6) == 1)
		return -EAFNOSUPPORT;
	if (inet_pton(AF_INET, addr, &a4) != 1)
		return -EINVAL;
	strcpy(t->server, addr);
	t->port = (unsigned int)attr_number(tdir, "port", 65535);
	for (size_t i = 0; i < sizeof(chap_attrs) / sizeof(chap_attrs[0]); i++)
		attr_read(tdir, chap_attrs[i].name, (char *)&t->chap + chap_attrs[i].offset,
			  ISCSI_SECRET_MAX);
	return 0;
}

int ibft_read(const char *dir, struct iscsi_target *t, char *initiator, size_t initiator_size)
{
	char sub[512];
	int r = -ENOENT;

	snprintf(sub, sizeof(sub), "%s/initiator", dir);
	attr_read(sub, "initiator-name", initiator, initiator_size);
	for (int i = 0; i < IBFT_TARGETS && r == -ENOENT; i++) {
		snprintf(sub, sizeof(sub), "%s/target%d", dir, i);
		r = target_read(sub, t);
	}
	if (r < 0)
		memset(t, 0, sizeof(*t));
	return r;
}
