/* mpath: claim the paths of multipath LUNs and group them with multipath-tools. */
#include "blockstack/mpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blockstack/udevdb.h"
#include "bootlib/blockattr.h"
#include "bootlib/clock.h"
#include "bootlib/log.h"
#include "bootlib/modload.h"
#include "bootlib/run.h"
#include "bootlib/timeline.h"
#include "common/featuremods.h"
#include "common/fileread.h"
#include "common/filewrite.h"
#include "common/layout.h"
#include "common/vpd83.h"

#define PATHS_MAX 32
#define SYSBLOCK "/sys/class/block"
#define WWIDS_FILE LAYOUT_MULTIPATH_DIR "/wwids"
#define WWIDS_MAX (64 * 1024)
/* A `multipath` run checks every path (TUR) synchronously: a dead path's
 * SCSI timeouts must not stop the boot. */
#define MULTIPATH_TIMEOUT_MS 60000
#define VPD_MAX 4096
#define CONF_MAX (64 * 1024)
/* find_multipaths_timeout beyond an hour is taken as an hour. */
#define HOLD_MAX_S 3600

/* What rd.multipath=default writes when the image has no multipath.conf:
 * group a WWID seen on two paths (or listed in wwids, where multipath
 * records every map it made); names are the WWIDs, which need no bindings
 * file and are the same on every machine. */
static const char default_conf[] =
	"# written by lifeboat for rd.multipath=default\n"
	"defaults {\n\tfind_multipaths yes\n\tuser_friendly_names no\n}\n";

enum path_state {
	PATH_PLAIN,     /* not a path of a claimed LUN: anyone may take it */
	PATH_HELD,      /* waiting for a second path (rd.multipath=default) */
	PATH_CLAIMED,   /* in (or going into) a map */
};

struct path {
	char dev[32];
	char wwid[VPD83_WWID_MAX];
	enum path_state state;
	uint64_t held_at;        /* clock_now_ms() when it began to wait */
	pid_t timer;             /* hold_timer_start's child; 0: none */
};

struct mpath {
	enum mpath_mode mode;
	struct path paths[PATHS_MAX];
	size_t n_paths;
	char *wwids;             /* the image's wwids file; NULL: none */
	bool modules_loaded;
	bool warned_off;
	bool marked;             /* the timeline has the first path */
	long hold_ms;            /* a lone path's bound (MPATH_HOLD_MS) */
};

static struct mpath mp;

/* src into dst when it fits (a device name: never cut). */
static bool copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

/* "find_multipaths_timeout N" on one line (a '#' or '!' comment may
 * follow; the value may be quoted): N's ms, or -1. */
static long conf_line_hold(const char *line, size_t len)
{
	static const char key[] = "find_multipaths_timeout";
	const size_t k = sizeof(key) - 1;
	long s = 0;
	size_t i;

	if (len <= k || memcmp(line, key, k) != 0 || (line[k] != ' ' && line[k] != '\t'))
		return -1;
	for (i = k; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	i += i < len && line[i] == '"';
	i += i < len && line[i] == '-';
	if (i >= len || line[i] < '0' || line[i] > '9')
		return -1;
	for (; i < len && line[i] >= '0' && line[i] <= '9'; i++)
		s = s < HOLD_MAX_S ? s * 10 + (line[i] - '0') : s;
	i += i < len && line[i] == '"';
	if (i < len && !strchr(" \t#!", line[i]))
		return -1;
	return s == 0 ? -1 : (s > HOLD_MAX_S ? HOLD_MAX_S : s) * 1000;
}

long mpath_conf_hold_ms(const char *text)
{
	long ms = -1;

	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		size_t lead = strspn(text, " \t");
		long v = lead < len ? conf_line_hold(text + lead, len - lead) : -1;

		/* The last one given counts, as in multipath-tools. */
		if (v > 0)
			ms = v;
		text = end ? end + 1 : NULL;
	}
	return ms;
}

bool mpath_wwids_has(const char *text, const char *wwid)
{
	size_t n = strlen(wwid);

	if (!n)
		return false;
	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);

		if (len == n + 2 && text[0] == '/' && text[n + 1] == '/' &&
		    memcmp(text + 1, wwid, n) == 0)
			return true;
		text = end ? end + 1 : NULL;
	}
	return false;
}

static bool wwids_any(const char *text)
{
	while (text && *text) {
		if (*text == '/')
			return true;
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	return false;
}

static char *read_wwids(const char *root)
{
	char path[PATH_MAX];
	char *data = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s%s", root, WWIDS_FILE);
	if (file_read_all(path, WWIDS_MAX, &data, &len) < 0)
		return NULL;
	return data;
}

enum mpath_mode mpath_mode_for(enum mpath_word word, const char *root)
{
	char path[PATH_MAX];
	char *wwids;
	bool listed;

	snprintf(path, sizeof(path), "%s%s", root, LAYOUT_MULTIPATH);
	if (word == MPATH_WORD_OFF || access(path, X_OK) < 0)
		return MPATH_OFF;
	if (word == MPATH_WORD_DEFAULT)
		return MPATH_DEFAULT;
	wwids = read_wwids(root);
	listed = wwids_any(wwids);
	free(wwids);
	return listed ? MPATH_STRICT : MPATH_OFF;
}

/* A lone path's bound: the image's multipath.conf, else MPATH_HOLD_MS. */
static long hold_bound_ms(void)
{
	char *conf = NULL;
	size_t len;
	long ms = -1;

	if (file_read_all(LAYOUT_MULTIPATH_CONF, CONF_MAX, &conf, &len) == 0)
		ms = mpath_conf_hold_ms(conf);
	free(conf);
	return ms > 0 ? ms : MPATH_HOLD_MS;
}

void mpath_setup(enum mpath_word word)
{
	int r;

	mp.mode = mpath_mode_for(word, "");
	mp.wwids = read_wwids("");
	if (mp.mode == MPATH_DEFAULT && access(LAYOUT_MULTIPATH_CONF, F_OK) < 0 &&
	    (r = file_write_text(LAYOUT_MULTIPATH_CONF, default_conf, O_EXCL)) < 0)
		log_warn("writing %s failed (%s): multipath groups only the WWIDs of %s",
			 LAYOUT_MULTIPATH_CONF, strerror(-r), WWIDS_FILE);
	mp.hold_ms = hold_bound_ms();
	if (mp.mode != MPATH_OFF)
		log_info("multipath: paths are grouped (%s)", mp.mode == MPATH_STRICT ?
			 "the WWIDs of " WWIDS_FILE : "rd.multipath=default: a WWID seen twice");
}

/* The disk's WWID from its VPD page 0x83; false for a partition, or a
 * disk without the page (virtio, md, dm, loop: no SCSI paths). */
static bool disk_wwid(const char *dev, char *wwid, size_t size)
{
	unsigned char page[VPD_MAX];
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSBLOCK "/%s/partition", dev);
	if (access(path, F_OK) == 0)
		return false;
	snprintf(path, sizeof(path), SYSBLOCK "/%s/device/vpd_pg83", dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, page, sizeof(page));
	close(fd);
	return n > 0 && vpd83_wwid(page, (size_t)n, wwid, size) > 0;
}

/* The disk a partition is on: the directory above it in sysfs. */
static bool partition_disk(const char *dev, char *disk, size_t size)
{
	char link[PATH_MAX], path[PATH_MAX];
	ssize_t n;
	char *slash;

	snprintf(path, sizeof(path), SYSBLOCK "/%s/partition", dev);
	if (access(path, F_OK) < 0)
		return false;
	snprintf(path, sizeof(path), SYSBLOCK "/%s", dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	slash = strrchr(link, '/');
	if (!slash)
		return false;
	*slash = '\0';
	slash = strrchr(link, '/');
	return copy_name(disk, size, slash ? slash + 1 : link);
}

static struct path *find_path(const char *dev)
{
	for (size_t i = 0; i < mp.n_paths; i++)
		if (strcmp(mp.paths[i].dev, dev) == 0)
			return &mp.paths[i];
	return NULL;
}

bool mpath_skip(const char *devname)
{
	char disk[64];
	const struct path *p = find_path(devname);

	if (!p && partition_disk(devname, disk, sizeof(disk)))
		p = find_path(disk);
	return p && p->state != PATH_PLAIN;
}

/* libmultipath lists only "initialized" devices: those with an entry. */
static void write_db_entry(const char *dev)
{
	struct udevdb_entry e = { .usec = clock_now_ms() * 1000 };
	int r = blockattr_devnum(dev, &e.major, &e.minor);

	if (r == 0)
		r = udevdb_write(UDEVDB_DIR, &e);
	if (r < 0)
		log_warn("multipath: writing the udev entry of /dev/%s failed (%s): multipath "
			 "does not see that path", dev, strerror(-r));
}

static void load_modules(void)
{
	static const char *const names[] = { FEATUREMODS_MPATH };

	if (mp.modules_loaded)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		modload_name(names[i]);
	mp.modules_loaded = true;
}

/* The dm-multipath map that holds dev ("dm-0"), if one does. */
static bool map_of(const char *dev, char *map, size_t size)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), SYSBLOCK "/%s/holders", dev);
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		char uuid[256];

		if (e->d_name[0] == '.' || blockattr_read(e->d_name, "dm/uuid", uuid, sizeof(uuid)) < 0)
			continue;
		if (strncmp(uuid, "mpath-", 6) == 0)
			found = copy_name(map, size, e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* Without udevd libdevmapper makes the nodes itself and waits for no one. */
static char *const tool_env[] = { "DM_DISABLE_UDEV=1", NULL };

static int run(char *const argv[], char *out, size_t size)
{
	return run_tool_bounded(argv, tool_env, NULL, 0, out, size, MULTIPATH_TIMEOUT_MS);
}

/* The map's partitions as Debian's 60-kpartx.rules names them (NAME-partN). */
static void map_partitions(const char *map)
{
	char dev[80], out[1024];
	char *argv[] = { LAYOUT_KPARTX, "-a", "-p", "-part", dev, NULL };
	int r;

	snprintf(dev, sizeof(dev), "/dev/%s", map);
	r = run(argv, out, sizeof(out));
	if (r != 0)
		log_warn("multipath: kpartx -a %s failed (exit %d): %s", dev, r, out);
}

/* Group the claimed paths: multipath makes the map, or reloads it with a
 * path it lacks. */
static bool group(const struct path *p)
{
	char out[4096], map[64];
	char *argv[] = { LAYOUT_MULTIPATH, "-v2", NULL };
	int r;

	load_modules();
	r = run(argv, out, sizeof(out));
	if (r != 0)
		log_warn("multipath: multipath -v2 failed (exit %d): %s", r, out);
	if (!map_of(p->dev, map, sizeof(map))) {
		log_warn("multipath: /dev/%s (WWID %s) is in no map after multipath ran; its paths "
			 "are used as plain disks: %s", p->dev, p->wwid, out);
		return false;
	}
	timeline_mark("mpath-map", "%s %s", map, p->wwid);
	log_info("multipath: /dev/%s is a path of %s (WWID %s)", p->dev, map, p->wwid);
	map_partitions(map);
	return true;
}

static size_t paths_of(const char *wwid)
{
	size_t n = 0;

	for (size_t i = 0; i < mp.n_paths; i++)
		n += strcmp(mp.paths[i].wwid, wwid) == 0;
	return n;
}

/* rd.multipath=0, or an image that does not group: say once that the LUN
 * is seen twice (the first path wins the root's match). */
static void warn_off(const struct path *p)
{
	if (mp.warned_off || paths_of(p->wwid) < 2)
		return;
	mp.warned_off = true;
	log_warn("multipath: /dev/%s and another disk are paths of one LUN (WWID %s), but "
		 "multipath is off (rd.multipath=0, or no rd.multipath=default and no wwids in "
		 "the image): the first path found is used alone", p->dev, p->wwid);
}

/* Offer the disk and its partitions again ("change" events). */
static void reoffer(const char *dev)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), SYSBLOCK "/%s/uevent", dev);
	file_write_value(path, "change");
	snprintf(path, sizeof(path), SYSBLOCK "/%s", dev);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char part[PATH_MAX + 300];

		if (strncmp(e->d_name, dev, strlen(dev)) != 0)
			continue;
		snprintf(part, sizeof(part), "%s/%s/uevent", path, e->d_name);
		file_write_value(part, "change");
	}
	if (d)
		closedir(d);
}

/* The bound's wake-up: a child that sleeps until the bound, then has the
 * kernel announce the disk again (a "change" uevent), so that the event
 * loop offers it wherever the boot waits and the release is decided there
 * (mpath_device_added). Nothing else ends a wait before the quiet period
 * (bootlib/evloop.h); a child that cannot be made leaves the release to
 * that. The child makes system calls only. */
static void hold_timer_start(struct path *p)
{
	/* 10 ms past the bound: the offer then finds it passed. */
	long ms = mp.hold_ms + 10;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	char uevent[PATH_MAX];
	pid_t pid;

	snprintf(uevent, sizeof(uevent), SYSBLOCK "/%s/uevent", p->dev);
	pid = fork();
	if (pid == 0) {
		int fd;

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		fd = open(uevent, O_WRONLY | O_CLOEXEC);
		if (fd >= 0 && write(fd, "change", 6) < 0)
			_exit(1);
		_exit(0);
	}
	p->timer = pid > 0 ? pid : 0;
}

static void hold_timer_stop(struct path *p)
{
	if (p->timer <= 0)
		return;
	kill(p->timer, SIGKILL);
	while (waitpid(p->timer, NULL, 0) < 0 && errno == EINTR)
		;
	p->timer = 0;
}

static void claim(struct path *p)
{
	bool grouped = mp.mode == MPATH_STRICT ? mpath_wwids_has(mp.wwids, p->wwid) :
		       mpath_wwids_has(mp.wwids, p->wwid) || paths_of(p->wwid) >= 2;

	if (!grouped) {
		p->state = mp.mode == MPATH_DEFAULT ? PATH_HELD : PATH_PLAIN;
		p->held_at = clock_now_ms();
		if (p->state == PATH_HELD)
			hold_timer_start(p);
		return;
	}
	for (size_t i = 0; i < mp.n_paths; i++)
		if (strcmp(mp.paths[i].wwid, p->wwid) == 0) {
			hold_timer_stop(&mp.paths[i]);
			mp.paths[i].state = PATH_CLAIMED;
		}
	if (group(p))
		return;
	/* No map: a path alone is better than no root. */
	for (size_t i = 0; i < mp.n_paths; i++)
		if (strcmp(mp.paths[i].wwid, p->wwid) == 0 && mp.paths[i].state != PATH_PLAIN) {
			mp.paths[i].state = PATH_PLAIN;
			if (&mp.paths[i] != p)
				reoffer(mp.paths[i].dev);
		}
}

static struct path *add_path(const char *dev, const char *wwid)
{
	struct path *p;

	if (mp.n_paths >= PATHS_MAX) {
		log_warn("multipath: more than %d SCSI disks: /dev/%s is not looked at", PATHS_MAX, dev);
		return NULL;
	}
	p = &mp.paths[mp.n_paths++];
	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	snprintf(p->wwid, sizeof(p->wwid), "%s", wwid);
	p->state = PATH_PLAIN;
	p->timer = 0;
	return p;
}

/* A held path goes back to the plain disks: its LUN showed one path. */
static void release(struct path *p)
{
	uint64_t held = clock_now_ms() - p->held_at;

	hold_timer_stop(p);
	p->state = PATH_PLAIN;
	timeline_mark("mpath-release", "%s %s", p->dev, p->wwid);
	log_info("multipath: /dev/%s (WWID %s) showed one path: used as a plain disk (held "
		 "%llu ms of at most %ld)", p->dev, p->wwid, (unsigned long long)held, mp.hold_ms);
	reoffer(p->dev);
}

/* Release the held paths: all (the devices settled), or those whose
 * bound has passed. */
static void release_held(bool all)
{
	uint64_t now = clock_now_ms();

	for (size_t i = 0; i < mp.n_paths; i++) {
		struct path *p = &mp.paths[i];

		if (p->state == PATH_HELD && (all || now - p->held_at >= (uint64_t)mp.hold_ms))
			release(p);
	}
}

bool mpath_device_added(const char *devname)
{
	char wwid[VPD83_WWID_MAX];
	struct path *p;

	release_held(false);
	p = find_path(devname);

	if (p || strlen(devname) >= sizeof(p->dev) || !disk_wwid(devname, wwid, sizeof(wwid)))
		return mpath_skip(devname);
	p = add_path(devname, wwid);
	if (!p)
		return false;
	if (mp.mode == MPATH_OFF) {
		warn_off(p);
		return false;
	}
	if (!mp.marked) {
		mp.marked = true;
		timeline_mark("mpath-path", "%s %s", devname, wwid);
	}
	write_db_entry(devname);
	claim(p);
	return p->state != PATH_PLAIN;
}

void mpath_settled(void)
{
	release_held(true);
}
