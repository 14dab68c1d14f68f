/* nvmfdown: delete the NVMe over TCP controllers left at the way out. */
#include "shutdown/nvmfdown.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "common/fileread.h"
#include "common/filewrite.h"
#include "shutdown/diskbusy.h"

static void attr_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX + 400];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (file_read_line(path, buf, size) < 0)
		buf[0] = '\0';
}

/* "nvme" then digits, then what follows them. */
static const char *after_digits(const char *name)
{
	if (strncmp(name, "nvme", 4) != 0 || !isdigit((unsigned char)name[4]))
		return NULL;
	name += 4;
	while (isdigit((unsigned char)*name))
		name++;
	return name;
}

static bool is_controller(const char *name)
{
	const char *p = after_digits(name);

	return p && *p == '\0';
}

bool nvmfdown_is_namespace(const char *name)
{
	const char *p = after_digits(name);

	if (!p || *p != 'n' || !isdigit((unsigned char)p[1]))
		return false;
	for (p++; isdigit((unsigned char)*p); p++)
		;
	return *p == '\0';
}

/* The nvme-subsysK whose directory lists controller name. */
static void subsys_find(const char *sys, const char *name, char *out, size_t size)
{
	char dir[256], path[600];
	DIR *d;
	const struct dirent *e;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/class/nvme-subsystem", sys);
	d = opendir(dir);
	while (d && !out[0] && (e = readdir(d))) {
		if (strncmp(e->d_name, "nvme-subsys", 11) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, name);
		if (strlen(e->d_name) < size && access(path, F_OK) == 0)
			memcpy(out, e->d_name, strlen(e->d_name) + 1);
	}
	if (d)
		closedir(d);
}

int nvmfdown_scan(const char *sys, struct nvmfdown_set *out)
{
	char dir[256], ctrl[600], transport[16];
	DIR *d;
	const struct dirent *e;

	memset(out, 0, sizeof(*out));
	snprintf(dir, sizeof(dir), "%s/class/nvme", sys);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d)) && out->len < NVMFDOWN_CTRL_MAX) {
		struct nvmfdown_ctrl *c = &out->ctrls[out->len];

		if (!is_controller(e->d_name) || strlen(e->d_name) >= sizeof(c->name))
			continue;
		snprintf(ctrl, sizeof(ctrl), "%s/%s", dir, e->d_name);
		attr_read(ctrl, "transport", transport, sizeof(transport));
		if (strcmp(transport, "tcp") != 0)
			continue;
		snprintf(c->name, sizeof(c->name), "%s", e->d_name);
		attr_read(ctrl, "subsysnqn", c->nqn, sizeof(c->nqn));
		attr_read(ctrl, "address", c->address, sizeof(c->address));
		subsys_find(sys, c->name, c->subsys, sizeof(c->subsys));
		out->len++;
	}
	closedir(d);
	return 0;
}

/* The first namespace in dir that busy() says is in use, into name. */
static int dir_busy(const char *dir, bool (*busy)(const char *), char *name, size_t size)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d)))
		if (nvmfdown_is_namespace(e->d_name) && busy(e->d_name)) {
			snprintf(name, size, "%s", e->d_name);
			found = 1;
		}
	if (d)
		closedir(d);
	return found;
}

/* Namespaces sit under the controller without native multipath, under the
 * subsystem (the heads) with it. */
int nvmfdown_busy(const char *sys, const struct nvmfdown_ctrl *c,
		  bool (*busy)(const char *name), char *name, size_t size)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/class/nvme/%s", sys, c->name);
	if (dir_busy(dir, busy, name, size))
		return 1;
	if (!c->subsys[0])
		return 0;
	snprintf(dir, sizeof(dir), "%s/class/nvme-subsystem/%s", sys, c->subsys);
	return dir_busy(dir, busy, name, size);
}

static int ctrl_delete(const struct nvmfdown_ctrl *c)
{
	char path[300], busy[64];
	int r;

	if (nvmfdown_busy("/sys", c, diskbusy_held, busy, sizeof(busy))) {
		log_warn("the NVMe/TCP controller %s (%s, %s) is not disconnected: its namespace "
			 "%s is still in use (mounted or held; see the messages above); it ends "
			 "with the power-off", c->name, c->nqn, c->address, busy);
		return -EBUSY;
	}
	snprintf(path, sizeof(path), "/sys/class/nvme/%s/delete_controller", c->name);
	r = file_write_value(path, "1");
	if (r < 0) {
		log_error("disconnecting the NVMe/TCP controller %s (%s, %s) failed: %s; it ends "
			  "with the power-off", c->name, c->nqn, c->address, strerror(-r));
		return r;
	}
	log_info("disconnected the NVMe/TCP controller %s (%s, %s)", c->name, c->nqn, c->address);
	return 0;
}

bool nvmfdown_is_tcp_disk(const char *block_path)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], transport[16];
	const char *slash = strrchr(block_path, '/');
	DIR *d;
	const struct dirent *e;
	bool tcp = false;

	if (strstr(block_path, "/nvme-fabrics/"))
		return true;
	if (!strstr(block_path, "/nvme-subsystem/") || !slash ||
	    (size_t)(slash - block_path) >= sizeof(dir))
		return false;
	memcpy(dir, block_path, (size_t)(slash - block_path));
	dir[slash - block_path] = '\0';
	d = opendir(dir);
	while (d && !tcp && (e = readdir(d))) {
		if (!is_controller(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		attr_read(path, "transport", transport, sizeof(transport));
		tcp = strcmp(transport, "tcp") == 0;
	}
	if (d)
		closedir(d);
	return tcp;
}

int nvmfdown_run(void)
{
	static struct nvmfdown_set set;
	int r = nvmfdown_scan("/sys", &set), left = 0;

	if (r < 0)
		return r;
	for (size_t i = 0; i < set.len; i++)
		left += ctrl_delete(&set.ctrls[i]) < 0;
	return left;
}
