/* nvmfhost: the build host's NVMe over TCP controllers, from sysfs. */
#include "gen/host/nvmfhost.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "common/fileread.h"

/* fn(controller directory, ctx) for each tcp controller; how many. */
static int each_tcp(const char *sysfs, void (*fn)(const char *dir, void *ctx), void *ctx)
{
	char dir[512], ctrl[1024], path[1100], transport[16];
	DIR *d;
	const struct dirent *e;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/class/nvme", sysfs);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "nvme", 4) != 0)
			continue;
		snprintf(ctrl, sizeof(ctrl), "%s/%s", dir, e->d_name);
		snprintf(path, sizeof(path), "%s/transport", ctrl);
		if (file_read_line(path, transport, sizeof(transport)) < 0 ||
		    strcmp(transport, "tcp") != 0)
			continue;
		n++;
		if (fn)
			fn(ctrl, ctx);
	}
	if (d)
		closedir(d);
	return n;
}

bool nvmfhost_has_tcp(const char *sysfs)
{
	return each_tcp(sysfs, NULL, NULL) > 0;
}

/* The value of key= in the kernel's "traddr=A,trsvcid=P,host_traddr=H". */
static void field_get(const char *address, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p = address;

	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			snprintf(out, size, "%.*s", (int)(n - klen - 1), p + klen + 1);
			return;
		}
		p += n + (p[n] == ',');
	}
}

static bool plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == '=' || *s == 0x7f)
			return false;
	return true;
}

static void conn_add(const char *dir, void *ctx)
{
	struct nvmfhost_conn *c = ctx;
	char path[1100], address[512], traddr[256], port[64], host[256], word[700];
	size_t len = strlen(c->words);

	snprintf(path, sizeof(path), "%s/address", dir);
	if (file_read_line(path, address, sizeof(address)) < 0)
		return;
	field_get(address, "traddr", traddr, sizeof(traddr));
	field_get(address, "trsvcid", port, sizeof(port));
	field_get(address, "host_traddr", host, sizeof(host));
	if (!traddr[0] || !port[0] || !plain(traddr) || !plain(port) || !plain(host))
		return;
	snprintf(word, sizeof(word), "rd.nvmf.discover=tcp,%s,%s,%s", traddr, host, port);
	if (!strstr(c->words, word) && len + strlen(word) + 2 < sizeof(c->words))
		snprintf(c->words + len, sizeof(c->words) - len, "%s%s", len ? " " : "", word);
	if (!c->hostnqn[0]) {
		snprintf(path, sizeof(path), "%s/hostnqn", dir);
		if (file_read_line(path, c->hostnqn, sizeof(c->hostnqn)) < 0)
			c->hostnqn[0] = '\0';
		snprintf(path, sizeof(path), "%s/hostid", dir);
		if (file_read_line(path, c->hostid, sizeof(c->hostid)) < 0)
			c->hostid[0] = '\0';
	}
}

int nvmfhost_conn_read(const char *sysfs, struct nvmfhost_conn *out)
{
	memset(out, 0, sizeof(*out));
	return each_tcp(sysfs, conn_add, out);
}
