/* Unit tests: rd.luks.key=KEYPATH[:KEYDEV[:LUKSDEV]], the key file reader,
 * and when the key files of a container wait or do not apply. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockstack/key_read.h"
#include "blockstack/keyspec.h"
#include "blockstack/lukskey.h"
#include "blockstack/stack_params.h"
#include "tests/unit/stackwords.h"
#include "init/bootargs.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"
#define U2 "1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d"

static void path_only_is_in_the_image(void **state)
{
	struct luks_key k;

	(void)state;
	assert_int_equal(keyspec_parse("/etc/luks/root.key", &k), 0);
	assert_string_equal(k.path, "/etc/luks/root.key");
	assert_false(k.has_keydev);
	assert_false(k.has_luksdev);
	assert_true(keyspec_applies(&k, "vda", U1));
	/* An empty KEYDEV is the image too, with a LUKSDEV after it. */
	assert_int_equal(keyspec_parse("/k::UUID=" U1, &k), 0);
	assert_false(k.has_keydev);
	assert_true(k.has_luksdev);
	assert_true(keyspec_applies(&k, "vdb", U1));
	assert_false(keyspec_applies(&k, "vdb", U2));
}

static void key_device_forms(void **state)
{
	struct luks_key k;
	char text[300];

	(void)state;
	assert_int_equal(keyspec_parse("/keys/root.key:LABEL=keys", &k), 0);
	assert_string_equal(k.path, "/keys/root.key");
	assert_true(k.has_keydev);
	assert_int_equal(k.keydev.kind, DEVSPEC_LABEL);
	assert_string_equal(k.keydev.value, "keys");
	keyspec_dev_text(&k.keydev, text, sizeof(text));
	assert_string_equal(text, "LABEL=keys");
	assert_int_equal(keyspec_parse("/k:UUID=" U2, &k), 0);
	assert_int_equal(k.keydev.kind, DEVSPEC_UUID);
	assert_int_equal(keyspec_parse("/k:PARTUUID=0a0b0c0d-01", &k), 0);
	assert_int_equal(k.keydev.kind, DEVSPEC_PARTUUID);
	assert_int_equal(keyspec_parse("/k:/dev/sdb1", &k), 0);
	assert_int_equal(k.keydev.kind, DEVSPEC_PATH);
	keyspec_dev_text(&k.keydev, text, sizeof(text));
	assert_string_equal(text, "/dev/sdb1");
	assert_int_equal(keyspec_parse("/k:/dev/disk/by-label/usb", &k), 0);
	assert_int_equal(k.keydev.kind, DEVSPEC_LABEL);
}

static void luks_device_limits_the_key(void **state)
{
	struct luks_key k;

	(void)state;
	assert_int_equal(keyspec_parse("/k:LABEL=keys:UUID=" U1, &k), 0);
	assert_true(keyspec_applies(&k, "vda", U1));
	/* UUIDs compare whatever their case. */
	assert_true(keyspec_applies(&k, "vda", "1B2C3D4E-0001-4A5B-8C6D-7E8F9A0B1C2D"));
	assert_false(keyspec_applies(&k, "vda", U2));
	assert_int_equal(keyspec_parse("/k:LABEL=keys:/dev/vdb", &k), 0);
	assert_true(keyspec_applies(&k, "vdb", U2));
	assert_false(keyspec_applies(&k, "vda", U2));
	assert_int_equal(keyspec_parse("/k:LABEL=keys:/dev/disk/by-uuid/" U2, &k), 0);
	assert_true(keyspec_applies(&k, "vdc", U2));
}

static void malformed_keys(void **state)
{
	struct luks_key k;
	char longpath[KEY_PATH_MAX + 2];

	(void)state;
	assert_int_equal(keyspec_parse(NULL, &k), -EINVAL);
	assert_int_equal(keyspec_parse("", &k), -EINVAL);
	assert_int_equal(keyspec_parse(":LABEL=keys", &k), -EINVAL);
	assert_int_equal(keyspec_parse("relative.key", &k), -EINVAL);
	assert_int_equal(keyspec_parse("/keys/../etc/shadow:LABEL=k", &k), -EINVAL);
	assert_int_equal(keyspec_parse("/..", &k), -EINVAL);
	/* ".." only as a whole part: names that contain dots are fine. */
	assert_int_equal(keyspec_parse("/keys/..root.key", &k), 0);
	assert_int_equal(keyspec_parse("/k:LABEL=", &k), -EINVAL);
	assert_int_equal(keyspec_parse("/k:keys", &k), -EINVAL);
	assert_int_equal(keyspec_parse("/k:LABEL=a:", &k), -EINVAL);
	/* The container is named by its UUID or its node only. */
	assert_int_equal(keyspec_parse("/k:LABEL=a:LABEL=b", &k), -EINVAL);
	assert_int_equal(keyspec_parse("/k:LABEL=a:UUID=" U1 ":x", &k), -EINVAL);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(keyspec_parse(longpath, &k), -ENAMETOOLONG);
}

/* As the command line hands them over: repeatable, in order, bounded. */
static void keys_on_the_command_line(void **state)
{
	struct boot_args args;
	struct stack_params p;

	(void)state;
	bootargs_init(&args);
	assert_int_equal(bootargs_parse("root=/dev/mapper/r rd.luks.key=/a.key "
				       "rd.luks.key=/b.key:LABEL=usb:UUID=" U1, NULL, &args), 0);
	p = args.stacks;
	bootargs_free(&args);
	assert_int_equal(p.n_keys, 2);
	assert_string_equal(p.luks_keys[0].path, "/a.key");
	assert_string_equal(p.luks_keys[1].path, "/b.key");
	assert_string_equal(p.luks_keys[1].keydev.value, "usb");
	assert_int_equal(stack_params_apply(&p, "rd.luks.key=nope"), -EINVAL);
	assert_int_equal(p.n_keys, 2);
	for (size_t i = p.n_keys; i < STACK_LIST_MAX; i++)
		assert_int_equal(stack_params_apply(&p, "rd.luks.key=/c"), 0);
	assert_int_equal(stack_params_apply(&p, "rd.luks.key=/d"), -E2BIG);
}

/* The whole file, as the key's bytes. */
static int read_whole(const char *path, char *buf, size_t size, size_t *len)
{
	struct key_request req = { .path = path };

	return key_file_read(&req, buf, size, len);
}

static void key_file_reading(void **state)
{
	char path[] = "/tmp/lifeboat-test-key-XXXXXX";
	char buf[16], big[KEY_BYTES_MAX + 1];
	size_t len = 99;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	/* Bytes as they are: a newline is part of the key. */
	assert_int_equal(write(fd, "secret\n", 7), 7);
	assert_int_equal(read_whole(path, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 7);
	assert_memory_equal(buf, "secret\n", 7);
	/* Exactly full fits; one byte more is refused, not cut. */
	assert_int_equal(read_whole(path, buf, 7, &len), 0);
	assert_int_equal(len, 7);
	assert_int_equal(read_whole(path, buf, 6, &len), -EFBIG);
	assert_int_equal(len, 0);
	memset(big, 'k', sizeof(big));
	assert_int_equal(write(fd, big, sizeof(big)), (ssize_t)sizeof(big));
	close(fd);
	assert_int_equal(read_whole(path, big, KEY_BYTES_MAX, &len), -EFBIG);
	unlink(path);
	assert_int_equal(read_whole(path, buf, sizeof(buf), &len), -ENOENT);
}

/* keyfile-offset= and keyfile-size=: only those bytes, from a file that
 * may be far larger than a key; a file too short for them is refused. */
static void key_file_window(void **state)
{
	char path[] = "/tmp/lifeboat-test-key-XXXXXX";
	char buf[KEY_BYTES_MAX], big[3 * KEY_BYTES_MAX];
	struct key_request req = { .path = path, .offset = 2 * KEY_BYTES_MAX, .limit = 4 };
	size_t len = 0;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	memset(big, 'x', sizeof(big));
	memcpy(big + 2 * KEY_BYTES_MAX, "KEY!rest", 8);
	assert_int_equal(write(fd, big, sizeof(big)), (ssize_t)sizeof(big));
	close(fd);
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "KEY!", 4);
	/* An offset alone reads to the end (here KEY_BYTES_MAX bytes: fits). */
	req.limit = 0;
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, KEY_BYTES_MAX);
	req.offset = sizeof(big) - 2;
	req.limit = 4;
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), -ENODATA);
	assert_int_equal(len, 0);
	req.offset = sizeof(big) + 10;
	req.limit = 0;
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), -ENODATA);
	/* A limit beyond the buffer is refused before reading. */
	req.offset = 0;
	req.limit = sizeof(buf) + 1;
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), -EFBIG);
	assert_string_equal(key_read_strerror(-ENODATA),
			    "shorter than its keyfile-offset and keyfile-size say");
	unlink(path);
}

/* A hostile key device may hold anything under the key's name: a FIFO
 * (whose open would wait for a writer forever: the boot hangs), a device
 * node or a link to one (/dev/zero never ends, a tty waits for input), a
 * directory. Each is refused at once, without opening it; the alarm turns
 * a hang into a failed test. */
static void key_file_must_be_regular(void **state)
{
	char dir[] = "/tmp/lifeboat-test-keydir-XXXXXX", fifo[64], link[64], buf[64];
	size_t len = 99;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/zero", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink("/dev/zero", link), 0);
	alarm(10);
	assert_int_equal(read_whole(fifo, buf, sizeof(buf), &len), -EMEDIUMTYPE);
	assert_int_equal(len, 0);
	assert_int_equal(read_whole(link, buf, sizeof(buf), &len), -EMEDIUMTYPE);
	assert_int_equal(read_whole("/dev/null", buf, sizeof(buf), &len), -EMEDIUMTYPE);
	assert_int_equal(read_whole(dir, buf, sizeof(buf), &len), -EMEDIUMTYPE);
	alarm(0);
	assert_string_equal(key_read_strerror(-EMEDIUMTYPE),
			    "not a regular file (a FIFO, device or directory could hang the boot)");
	unlink(fifo);
	unlink(link);
	rmdir(dir);
}

/* On a key device the file must lie on that device's filesystem: a link
 * out of it (into the image, /proc, ...) is refused. */
static void key_file_must_be_within(void **state)
{
	char path[] = "/tmp/lifeboat-test-key-XXXXXX", buf[16];
	struct key_request req = { .path = path, .within = "/proc" };
	size_t len = 99;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "secret", 6), 6);
	close(fd);
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), -EXDEV);
	assert_int_equal(len, 0);
	req.within = "/tmp";
	assert_int_equal(key_file_read(&req, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 6);
	/* A size known to be too large is refused before anything is read. */
	req.within = NULL;
	assert_int_equal(key_file_read(&req, buf, 5, &len), -EFBIG);
	unlink(path);
}

/* Which keys apply, and when a container waits for its key device;
 * no key is read here, so nothing reaches cryptsetup. */
static void keys_wait_or_do_not_apply(void **state)
{
	struct stack_params p;
	struct luks_opts o;
	struct luks_container a = { "vda", U1, "r", &o, 0, false }, b = { "vdb", U2, "r", &o, 0, false };

	(void)state;
	luks_opts_init(&o);
	stack_params_init(&p);
	assert_int_equal(luks_keys_open(&p, &a, true, false), KEY_NONE);
	assert_int_equal(stack_params_apply(&p, "rd.luks.key=/k:LABEL=usb:UUID=" U2), 0);
	assert_int_equal(luks_keys_open(&p, &a, true, false), KEY_NONE);
	/* Allowed, but the device is not there (no such label here): wait,
	 * until the devices settle. */
	assert_int_equal(luks_keys_open(&p, &b, true, false), KEY_WAIT);
	assert_int_equal(luks_keys_open(&p, &b, true, true), KEY_FAILED);
	/* Before the resume decision a key device is not read, and the
	 * container does not wait (it may hold the resume device). */
	assert_int_equal(luks_keys_open(&p, &b, false, false), KEY_FAILED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(path_only_is_in_the_image),
		cmocka_unit_test(key_device_forms),
		cmocka_unit_test(luks_device_limits_the_key),
		cmocka_unit_test(malformed_keys),
		cmocka_unit_test(keys_on_the_command_line),
		cmocka_unit_test(key_file_reading),
		cmocka_unit_test(key_file_window),
		cmocka_unit_test(key_file_must_be_regular),
		cmocka_unit_test(key_file_must_be_within),
		cmocka_unit_test(keys_wait_or_do_not_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
