/* Unit tests: the way out (shutdown/): its arguments and command line
 * words, the mountinfo parser and the unmount order, the order the block
 * layers come down in and the iSCSI sessions found (on sysfs trees made
 * here), the decision to leave the environment, and the step loop (every
 * step runs, each bounded). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>

#include "bootlib/clock.h"
#include "bootlib/stage.h"
#include "shutdown/bounded.h"
#include "shutdown/finish.h"
#include "shutdown/iscsilogout.h"
#include "shutdown/leave.h"
#include "common/mountinfo.h"
#include "shutdown/mountlist.h"
#include "shutdown/sequence.h"
#include "shutdown/stackdown.h"
#include "shutdown/verb.h"

static int parse(const char *a1, const char *a2, struct shutdown_args *out)
{
	char *argv[] = { (char *)"/shutdown", (char *)a1, (char *)a2, NULL };
	int argc = a1 ? (a2 ? 3 : 2) : 1;

	return shutdown_verb_args_parse(argc, argv, out);
}

/* systemd's options after the verb, and whether each asks for the debug
 * log: systemd 252 passes its level as a number (LOG_DEBUG is 7). */
static const struct {
	const char *arg;
	bool debug;
} options[] = {
	{ "--log-level=debug", true },
	{ "--log-level=7", true },
	{ "--log-level=6", false },
	{ "--log-level=info", false },
	{ "--log-level=77", false },
	{ "--log-level=", false },
	{ "--log-level7", false },
	{ "--timeout=90000000us", false },
};

static void verbs(void **state)
{
	struct shutdown_args a;

	(void)state;
	assert_int_equal(parse("reboot", NULL, &a), 0);
	assert_int_equal(a.reboot_cmd, (int)RB_AUTOBOOT);
	assert_int_equal(parse("poweroff", NULL, &a), 0);
	assert_int_equal(a.reboot_cmd, (int)RB_POWER_OFF);
	assert_string_equal(a.verb, "poweroff");
	assert_int_equal(parse("halt", NULL, &a), 0);
	assert_int_equal(a.reboot_cmd, (int)RB_HALT_SYSTEM);
	assert_int_equal(parse("kexec", NULL, &a), 0);
	assert_int_equal(a.reboot_cmd, (int)RB_KEXEC);
	assert_false(a.debug);
	/* systemd's options follow the verb; the verb stays at argv[1]. */
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		assert_int_equal(parse("reboot", options[i].arg, &a), 0);
		if (a.debug != options[i].debug)
			fail_msg("%s: debug is %d", options[i].arg, a.debug);
	}
	assert_false(a.handed_over);
	/* A script's call, after the handover's pivot (shutdown/handover.c). */
	assert_int_equal(parse("poweroff", SHUTDOWN_HANDED_OVER, &a), 0);
	assert_true(a.handed_over);
	assert_false(a.debug);
	assert_int_equal(parse(NULL, NULL, &a), -EINVAL);
	assert_int_equal(parse("exit", NULL, &a), -EINVAL);
	assert_int_equal(parse("--log-level=debug", "reboot", &a), -EINVAL);
	assert_int_equal(parse("Reboot", NULL, &a), -EINVAL);
}

static void cmdline_words(void **state)
{
	struct shutdown_cmdline w;

	(void)state;
	shutdown_verb_cmdline_parse("root=/dev/vda rd.break=shutdown quiet\n", &w);
	assert_false(w.debug);
	shutdown_verb_cmdline_parse("rd.shutdown.debug rd.break=pre-pivot", &w);
	assert_true(w.debug);
	shutdown_verb_cmdline_parse("xrd.shutdown.debug rd.shutdown.debugx rd.shutdown.debug=0", &w);
	assert_false(w.debug);
	/* Quotes group and are removed, as the init reads them. */
	shutdown_verb_cmdline_parse("root=/dev/vda \"rd.shutdown.debug\"", &w);
	assert_true(w.debug);
	shutdown_verb_cmdline_parse("a=\"b rd.shutdown.debug\"", &w);
	assert_false(w.debug);
	shutdown_verb_cmdline_parse("", &w);
	assert_false(w.debug);
	/* The init reads rd.break=shutdown to leave the shell and its mark. */
	assert_int_equal(stage_parse("shutdown"), STAGE_SHUTDOWN);
}

/* parse_line through the shared parser, then the prefix and the copy. */
static int mountlist_parse_line(const char *line, const char *prefix, struct mount_entry *e)
{
	char copy[2048];
	struct mountinfo_entry m;

	snprintf(copy, sizeof(copy), "%s", line);
	if (mountinfo_parse_line(copy, &m) < 0)
		return -EINVAL;
	return mountlist_entry_from(&m, prefix, e);
}

static void mountinfo_line(void **state)
{
	struct mount_entry e;

	(void)state;
	assert_int_equal(mountlist_parse_line("36 25 253:1 / /oldroot rw,relatime shared:1 - ext4 "
					      "/dev/mapper/lbcvg-root rw", "/oldroot", &e), 0);
	assert_string_equal(e.path, "/oldroot");
	assert_string_equal(e.fstype, "ext4");
	assert_string_equal(e.source, "/dev/mapper/lbcvg-root");
	/* No optional fields, and an escaped space in the mount point. */
	assert_int_equal(mountlist_parse_line("40 36 0:5 / /oldroot/my\\040disk rw - nfs4 "
					      "srv:/x\\134y rw", "/oldroot", &e), 0);
	assert_string_equal(e.path, "/oldroot/my disk");
	assert_string_equal(e.source, "srv:/x\\y");
	assert_int_equal(mountlist_parse_line("40 36 0:5 / /oldrootx rw - tmpfs tmpfs rw",
					      "/oldroot", &e), -ENOENT);
	assert_int_equal(mountlist_parse_line("40 36 0:5 / / rw - tmpfs tmpfs rw", "/oldroot", &e),
			 -ENOENT);
	assert_int_equal(mountlist_parse_line("40 36 0:5 / /oldroot rw tmpfs tmpfs", "/oldroot", &e),
			 -EINVAL);
	assert_int_equal(mountlist_parse_line("40 36", "/oldroot", &e), -EINVAL);
	/* A long root field (a bind of a deep directory) is stepped over; a
	 * mount point that does not fit the list's entry is refused. */
	{
		char line[2048];

		snprintf(line, sizeof(line), "41 36 0:5 /%01500d /oldroot/b rw - ext4 /dev/vda rw", 7);
		assert_int_equal(mountlist_parse_line(line, "/oldroot", &e), 0);
		assert_string_equal(e.path, "/oldroot/b");
		snprintf(line, sizeof(line), "41 36 0:5 / /oldroot/%0300d rw - ext4 /dev/vda rw", 7);
		assert_int_equal(mountlist_parse_line(line, "/oldroot", &e), -ENAMETOOLONG);
	}
	assert_int_equal(mountlist_parse_line("", "/oldroot", &e), -EINVAL);
}

/* Children before parents; of mounts at one place, the later one first. */
static void unmount_order(void **state)
{
	static const char text[] =
		"1 0 0:1 / / rw - tmpfs tmpfs rw\n"
		"20 1 253:1 / /oldroot rw - ext4 /dev/dm-1 rw\n"
		"21 20 0:20 / /oldroot/run rw - tmpfs tmpfs rw\n"
		"22 20 9:127 / /oldroot/boot rw - ext4 /dev/md127 rw\n"
		"23 21 0:30 / /oldroot/run/user/0 rw - tmpfs tmpfs rw\n"
		"24 20 0:31 / /oldroot/mnt rw - tmpfs first rw\n"
		"25 24 0:32 / /oldroot/mnt rw - tmpfs second rw\n"
		"26 1 0:5 / /dev rw - devtmpfs devtmpfs rw\n"
		"garbage line\n";
	static const char *const want[] = {
		"/oldroot/run/user/0", "/oldroot/mnt", "/oldroot/mnt", "/oldroot/boot",
		"/oldroot/run", "/oldroot",
	};
	struct mount_list *list = malloc(sizeof(*list));

	(void)state;
	assert_non_null(list);
	assert_int_equal(mountlist_parse(text, "/oldroot", list), 0);
	assert_int_equal(list->len, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < list->len; i++)
		assert_string_equal(list->items[i].path, want[i]);
	assert_string_equal(list->items[1].source, "second");
	assert_string_equal(list->items[2].source, "first");
	free(list);
}

/* A sysfs tree as the kernel shows LVM on LUKS (dm-1 on dm-0) beside an
 * md array, and a stopped array that must be left alone. */
static char sys_dir[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sys_dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", sys_dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void make_sys(void)
{
	snprintf(sys_dir, sizeof(sys_dir), "/tmp/lifeboat-sys-XXXXXX");
	assert_non_null(mkdtemp(sys_dir));
	dir("block");
	dir("block/dm-0"); dir("block/dm-0/dm"); dir("block/dm-0/holders");
	dir("block/dm-0/holders/dm-1");
	put("block/dm-0/dm/name", "lbcrypt\n");
	put("block/dm-0/dm/uuid", "CRYPT-LUKS2-1b2c3d4e00044a5b8c6d7e8f9a0b1c2d-lbcrypt\n");
	dir("block/dm-1"); dir("block/dm-1/dm"); dir("block/dm-1/holders");
	put("block/dm-1/dm/name", "lbcvg-root\n");
	put("block/dm-1/dm/uuid", "LVM-abcdef\n");
	dir("block/md127"); dir("block/md127/md"); dir("block/md127/holders");
	put("block/md127/md/array_state", "clean\n");
	dir("block/md126"); dir("block/md126/md"); dir("block/md126/holders");
	put("block/md126/md/array_state", "inactive\n");
	dir("block/vda"); dir("block/vda/holders");
}

static const struct stackdown_dev *find(const struct stackdown_set *set, const char *kname)
{
	for (size_t i = 0; i < set->len; i++)
		if (strcmp(set->devs[i].kernel_name, kname) == 0)
			return &set->devs[i];
	return NULL;
}

static void stack_order(void **state)
{
	struct stackdown_set set;
	const struct stackdown_dev *d;
	char cmd[256];
	int i;

	(void)state;
	make_sys();
	assert_int_equal(stackdown_scan(sys_dir, &set), 0);
	assert_int_equal(set.len, 3);  /* dm-0, dm-1, md127; not md126, not vda */
	assert_null(find(&set, "md126"));
	d = find(&set, "dm-0");
	assert_non_null(d);
	assert_true(d->held);
	assert_int_equal(d->kind, STACKDOWN_CRYPT);
	assert_string_equal(d->name, "lbcrypt");
	d = find(&set, "dm-1");
	assert_non_null(d);
	assert_false(d->held);
	assert_int_equal(d->kind, STACKDOWN_LVM);
	assert_int_equal(find(&set, "md127")->kind, STACKDOWN_MD);
	/* The container is never next while the volume on it is there. */
	for (int round = 0; round < 2; round++) {
		i = stackdown_next(&set);
		assert_true(i >= 0);
		assert_string_not_equal(set.devs[i].kernel_name, "dm-0");
		set.devs[i].done = true;
	}
	assert_int_equal(stackdown_next(&set), -1);
	/* The volume gone (as the kernel shows it), the container can go. */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/block/dm-1 %s/block/dm-0/holders/dm-1", sys_dir, sys_dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(stackdown_scan(sys_dir, &set), 0);
	assert_false(find(&set, "dm-0")->held);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", sys_dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(stackdown_dm_kind("CRYPT-PLAIN-x"), STACKDOWN_CRYPT);
	assert_int_equal(stackdown_dm_kind(""), STACKDOWN_DM_OTHER);
	assert_int_equal(stackdown_dm_kind("mpath-35000c500a1b2c3d4"), STACKDOWN_MPATH);
	assert_int_equal(stackdown_dm_kind("part1-mpath-35000c500a1b2c3d4"), STACKDOWN_DM_OTHER);
}

/* The way out's fail_if_no_path to a multipath map: the request the
 * kernel's DM_TARGET_MSG reads (dm-ioctl.h), to sector 0. */
static void dm_message_request(void **state)
{
	union {
		struct dm_ioctl io;
		char buf[512];
	} u;
	const struct dm_target_msg *msg = (const void *)(u.buf + sizeof(struct dm_ioctl));
	size_t len;
	char name[DM_NAME_LEN + 1];

	(void)state;
	len = stackdown_dm_message_pack(&u, sizeof(u), "35000c500a1b2c3d4", "fail_if_no_path");
	assert_int_equal(len, sizeof(struct dm_ioctl) + sizeof(struct dm_target_msg) + 16);
	assert_int_equal(u.io.version[0], DM_VERSION_MAJOR);
	assert_int_equal(u.io.data_size, len);
	assert_int_equal(u.io.data_start, sizeof(struct dm_ioctl));
	assert_string_equal(u.io.name, "35000c500a1b2c3d4");
	assert_int_equal(msg->sector, 0);
	assert_string_equal(msg->message, "fail_if_no_path");
	/* Too small a buffer, or a name dm cannot hold: no request. */
	assert_int_equal(stackdown_dm_message_pack(&u, sizeof(struct dm_ioctl) + 8, "m",
						   "fail_if_no_path"), 0);
	memset(name, 'n', DM_NAME_LEN);
	name[DM_NAME_LEN] = '\0';
	assert_int_equal(stackdown_dm_message_pack(&u, sizeof(u), name, "fail_if_no_path"), 0);
}

/* The iSCSI sessions as the kernel shows one of iscsistart's with its LUN,
 * beside a session with nothing logged in yet. */
static void dirs(const char *rel)
{
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", sys_dir, rel);
	assert_int_equal(system(cmd), 0);
}

static const struct iscsilogout_session *session(const struct iscsilogout_set *set, uint32_t sid)
{
	for (size_t i = 0; i < set->len; i++)
		if (set->sessions[i].sid == sid)
			return &set->sessions[i];
	return NULL;
}

static void iscsi_sessions(void **state)
{
	static struct iscsilogout_set set;
	const struct iscsilogout_session *s;
	uint64_t handle = 0;
	char cmd[128];

	(void)state;
	snprintf(sys_dir, sizeof(sys_dir), "/tmp/lifeboat-iscsi-XXXXXX");
	assert_non_null(mkdtemp(sys_dir));
	/* No iSCSI class at all: nothing to do. */
	assert_int_equal(iscsilogout_scan(sys_dir, &set), 0);
	assert_int_equal(set.len, 0);
	assert_int_equal(iscsilogout_transport_handle(sys_dir, &handle), -ENOENT);
	dirs("class/iscsi_session/session1/device/target2:0:0/2:0:0:1/block/sda");
	dirs("class/iscsi_session/session1/device/target2:0:0/2:0:0:0");
	put("class/iscsi_session/session1/targetname", "iqn.2026-02.test.lifeboat:root\n");
	dirs("class/iscsi_connection/connection1:0");
	put("class/iscsi_connection/connection1:0/persistent_address", "198.51.100.1\n");
	put("class/iscsi_connection/connection1:0/persistent_port", "3260\n");
	dirs("class/iscsi_session/session12");
	dirs("class/iscsi_session/sessionx");
	dirs("class/iscsi_transport/tcp");
	put("class/iscsi_transport/tcp/handle", "18446744072645361472\n");
	assert_int_equal(iscsilogout_scan(sys_dir, &set), 0);
	assert_int_equal(set.len, 2);  /* not sessionx */
	s = session(&set, 1);
	assert_non_null(s);
	assert_string_equal(s->target, "iqn.2026-02.test.lifeboat:root");
	assert_string_equal(s->portal, "198.51.100.1:3260");
	assert_int_equal(s->n_conns, 1);
	assert_int_equal(s->cids[0], 0);
	s = session(&set, 12);
	assert_non_null(s);
	assert_int_equal(s->n_conns, 0);
	assert_string_equal(s->target, "?");
	assert_int_equal(iscsilogout_transport_handle(sys_dir, &handle), 0);
	assert_true(handle == 18446744072645361472ULL);
	put("class/iscsi_transport/tcp/handle", "12ab\n");
	assert_int_equal(iscsilogout_transport_handle(sys_dir, &handle), -EINVAL);
	assert_int_equal(iscsilogout_scan("/nonexistent-sys", &set), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sys_dir);
	assert_int_equal(system(cmd), 0);
}

/* The disks the busy check is asked about, and the one that is busy. */
static char asked[16][32];
static size_t n_asked;
static const char *busy_name;

static bool fake_busy(const char *disk)
{
	if (n_asked < 16)
		snprintf(asked[n_asked++], sizeof(asked[0]), "%s", disk);
	return busy_name && strcmp(disk, busy_name) == 0;
}

/* A session of 12 LUNs whose last one is still in use (audit N6: only 8
 * disks were looked at before a logout): each is asked, whatever their
 * number, and the busy one is found, so the session stays. */
static void iscsi_busy_among_many(void **state)
{
	char rel[160], name[32], cmd[128];

	(void)state;
	snprintf(sys_dir, sizeof(sys_dir), "/tmp/lifeboat-iscsi-XXXXXX");
	assert_non_null(mkdtemp(sys_dir));
	for (int lun = 0; lun < 12; lun++) {
		snprintf(rel, sizeof(rel), "class/iscsi_session/session3/device/target2:0:0/"
			 "2:0:0:%d/block/sd%c", lun, 'a' + lun);
		dirs(rel);
	}
	dirs("class/iscsi_session/session4/device/target3:0:0/3:0:0:0/block/sdz");
	busy_name = "sdl";
	n_asked = 0;
	assert_int_equal(iscsilogout_busy_disk(sys_dir, 3, fake_busy, name, sizeof(name)), 1);
	assert_string_equal(name, "sdl");
	busy_name = NULL;
	n_asked = 0;
	assert_int_equal(iscsilogout_busy_disk(sys_dir, 3, fake_busy, name, sizeof(name)), 0);
	assert_int_equal(n_asked, 12);
	for (size_t i = 0; i < n_asked; i++)
		assert_string_not_equal(asked[i], "sdz");  /* session 4's */
	n_asked = 0;
	assert_int_equal(iscsilogout_busy_disk(sys_dir, 9, fake_busy, name, sizeof(name)), 0);
	assert_int_equal(n_asked, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sys_dir);
	assert_int_equal(system(cmd), 0);
}

static void leave_decision(void **state)
{
	(void)state;
	assert_true(shutdown_leave_env_needed("/sys/devices/virtual/block/dm-1", false));
	assert_true(shutdown_leave_env_needed("/sys/devices/virtual/block/md127", false));
	assert_true(shutdown_leave_env_needed("/sys/devices/platform/host2/session1/target2:0:0/"
					      "2:0:0:1/block/sda", false));
	assert_true(shutdown_leave_env_needed("", true));
	assert_false(shutdown_leave_env_needed(
		"/sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda", false));
	assert_false(shutdown_leave_env_needed("", false));
}

/* The step loop: a recording runner. */
static char ran[8][64];
static size_t n_ran;

static int rec_runner(const struct shutdown_step *s)
{
	snprintf(ran[n_ran++], sizeof(ran[0]), "%s", s->name);
	return s->run();
}

static int ok(void) { return 0; }
static int two_left(void) { return 2; }
static int timed_out(void) { return -ETIMEDOUT; }

static void steps_all_run(void **state)
{
	static const struct shutdown_step t[] = {
		{ "a", timed_out, 10, "" }, { "b", two_left, 10, "" }, { "c", ok, 10, "" },
	};
	const struct shutdown_step *real;
	size_t n, unmount = 99, stack = 99, iscsi = 99;

	(void)state;
	n_ran = 0;
	assert_int_equal(shutdown_sequence_run(t, 3, rec_runner), 2);
	assert_int_equal(n_ran, 3);
	assert_string_equal(ran[2], "c");
	/* The real table: unmounting before the block layers come down, the
	 * iSCSI sessions under them last. */
	real = shutdown_sequence_steps(&n);
	for (size_t i = 0; i < n; i++) {
		assert_true(real[i].timeout_ms > 0);
		if (strstr(real[i].name, "unmounting"))
			unmount = i;
		if (strstr(real[i].name, "LUKS"))
			stack = i;
		if (strstr(real[i].name, "iSCSI"))
			iscsi = i;
	}
	assert_true(unmount < stack && stack < iscsi && iscsi == n - 1);
}

static int returns_three(void) { return 3; }

static int sleeps(void)
{
	struct timespec t = { 10, 0 };

	nanosleep(&t, NULL);
	return 0;
}

static void bounded(void **state)
{
	uint64_t start;

	(void)state;
	assert_int_equal(bounded_run(returns_three, 5000), 3);
	start = clock_now_ms();
	assert_int_equal(bounded_run(sleeps, 200), -ETIMEDOUT);
	assert_true(clock_now_ms() - start < 3000);
}

/* A sync stuck in the kernel (an NFS server gone): it never returns. */
static int sync_stuck(void)
{
	for (;;)
		pause();
	return 0;
}

static int reboots[4], n_reboots;

static int reboot_refused(int cmd)
{
	if (n_reboots < 4)
		reboots[n_reboots++] = cmd;
	return -EPERM;
}

/* Audit S2: the last sync is bounded. A stuck one is left after the limit
 * and reboot(2) is still called as the verb asks (a failed kexec falls back
 * to a reboot); the alarm ends the test, failed, if finish_run waits. */
static void finish_sync_stuck(void **state)
{
	const struct finish_ops ops = { sync_stuck, reboot_refused };
	struct shutdown_args args;
	uint64_t start = clock_now_ms();

	(void)state;
	alarm(20);
	assert_int_equal(parse("poweroff", NULL, &args), 0);
	n_reboots = 0;
	assert_int_equal(finish_run(&args, "all clean", &ops, 300), -EPERM);
	assert_true(clock_now_ms() - start < 5000);
	assert_int_equal(n_reboots, 1);
	assert_int_equal(reboots[0], (int)RB_POWER_OFF);
	assert_int_equal(parse("kexec", NULL, &args), 0);
	n_reboots = 0;
	assert_int_equal(finish_run(&args, "all clean", &ops, 300), -EPERM);
	assert_int_equal(n_reboots, 2);
	assert_int_equal(reboots[0], (int)RB_KEXEC);
	assert_int_equal(reboots[1], (int)RB_AUTOBOOT);
	/* The same bound for a script's handover, before its pivot. */
	assert_int_equal(finish_sync_bounded(sync_stuck, 300), -ETIMEDOUT);
	assert_int_equal(finish_sync_bounded(finish_sync, 20000), 0);
	alarm(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbs),
		cmocka_unit_test(cmdline_words),
		cmocka_unit_test(mountinfo_line),
		cmocka_unit_test(unmount_order),
		cmocka_unit_test(stack_order),
		cmocka_unit_test(dm_message_request),
		cmocka_unit_test(iscsi_sessions),
		cmocka_unit_test(iscsi_busy_among_many),
		cmocka_unit_test(leave_decision),
		cmocka_unit_test(steps_all_run),
		cmocka_unit_test(bounded),
		cmocka_unit_test(finish_sync_stuck),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
