/* lukstang: the clevis unlock (tang, tpm2, sss), through lifeboat-clevis. */
#include "blockstack/lukstang.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "blockstack/lukstpm2.h"
#include "bootlib/run.h"
#include "common/layout.h"
#include "common/termescape.h"

/* lifeboat-clevis's own exit statuses (clevis/clevis_main.c). */
#define CLEVIS_EXIT_FAILED 64
#define CLEVIS_EXIT_NO_BINDING 65
#define CLEVIS_EXIT_NO_HEADER 66
/* cryptsetup's for a refused passphrase. */
#define CRYPTSETUP_EXIT_BAD_PASSPHRASE 2

#define USED_PREFIX "clevis-used: "
#define BINDING_PREFIX "clevis-binding: "
/* What is kept of lifeboat-clevis's output, and room for it escaped (at
 * most 4 bytes for one: \xNN). */
#define CLEVIS_OUT_MAX LUKSTANG_OUT_MAX
#define CLEVIS_SHOWN_MAX (4 * CLEVIS_OUT_MAX + 1)

bool lukstang_next_line(const char **pos, char *line, size_t size)
{
	const char *p = *pos + strspn(*pos, "\n");
	size_t len = strcspn(p, "\n");

	if (len == 0)
		return false;
	term_escape(line, size, p, len, 0);
	*pos = p + len;
	return true;
}

bool lukstang_next_failure(const char **pos, char *line, size_t size)
{
	while (lukstang_next_line(pos, line, size))
		if (strncmp(line, USED_PREFIX, strlen(USED_PREFIX)) != 0 &&
		    strncmp(line, BINDING_PREFIX, strlen(BINDING_PREFIX)) != 0)
			return true;
	return false;
}

/* Each line lifeboat-clevis wrote, on the console: the binding and why. */
static void report_lines(const char *out)
{
	char line[CLEVIS_SHOWN_MAX];

	while (lukstang_next_line(&out, line, sizeof(line)))
		log_console("lifeboat: %s\n", line);
}

/* The words after prefix on out's first line that begins with it,
 * escaped, into words; false when out has no such line. (A reason quoting
 * a disk header's URL may hold the prefix inside a line.) */
static bool said_after(const char *out, const char *prefix, char *words, size_t size)
{
	const char *line = out;

	while (strncmp(line, prefix, strlen(prefix)) != 0) {
		line = strchr(line, '\n');
		if (!line++)
			return false;
	}
	line += strlen(prefix);
	term_escape(words, size, line, strcspn(line, "\n"), 0);
	return true;
}

void lukstang_used_pins(const char *out, char *used, size_t size)
{
	static const char head[] = "clevis ";

	snprintf(used, size, "%s", head);
	if (size <= strlen(head) || !said_after(out, USED_PREFIX, used + strlen(head),
						   size - strlen(head)))
		snprintf(used, size, "clevis");
}

void lukstang_binding(const char *out, char *binding, size_t size)
{
	char words[300];

	if (said_after(out, BINDING_PREFIX, words, sizeof(words)))
		snprintf(binding, size, "its clevis binding (%s)", words);
	else
		snprintf(binding, size, "its clevis binding");
}

void lukstang_said_opened(const struct luks_container *c, const char *out)
{
	char opts[300], pins[160], line[CLEVIS_SHOWN_MAX];
	const char *pos = out;

	luks_opts_suffix(c, false, opts, sizeof(opts));
	lukstang_used_pins(out, pins, sizeof(pins));
	log_info("opened /dev/%s (LUKS UUID=%s) as /dev/mapper/%s with its %s binding%s",
		 c->devname, c->uuid, c->name, pins, opts);
	/* A server that failed on the way is said once, after the unlock. */
	while (lukstang_next_failure(&pos, line, sizeof(line)))
		log_console("lifeboat: %s\n", line);
}

/* Why the bindings did not open it; out is what lifeboat-clevis (and the
 * cryptsetup it ran) wrote. */
static void report_failure(const struct luks_container *c, int r, const char *out)
{
	char shown[CLEVIS_SHOWN_MAX];

	if (r == CLEVIS_EXIT_FAILED) {
		report_lines(out);
	} else if (r == CRYPTSETUP_EXIT_BAD_PASSPHRASE) {
		log_console("lifeboat: the passphrase of the clevis binding does not open "
			    "/dev/%s (UUID=%s): its key slot was removed?\n", c->devname, c->uuid);
	} else {
		term_escape(shown, sizeof(shown), out, strlen(out), 0);
		log_console("lifeboat: the clevis unlock of /dev/%s (UUID=%s) failed: %s\n",
			    c->devname, c->uuid, r < 0 ? strerror(-r) : shown);
	}
}

void lukstang_argv(const struct luks_container *c, struct lukstang_argv *a)
{
	a->argv[0] = LAYOUT_CLEVIS;
	snprintf(a->secs, sizeof(a->secs), "%d", LUKS_TANG_TIMEOUT_SEC);
	luks_open_argv(c, a->argv + 3, a->dev, sizeof(a->dev));
	a->argv[1] = a->dev;
	a->argv[2] = a->secs;
}

enum tang_result luks_tang_open(const struct luks_container *c)
{
	struct lukstang_argv a;
	char out[CLEVIS_OUT_MAX];
	int r;

	if (access(LAYOUT_CLEVIS, X_OK) < 0)
		return TANG_NONE;
	/* A tpm2 binding (or share) needs /dev/tpmrm0: its drivers first, when
	 * they are modules (the image has them when it may meet one). */
	lukstpm2_device_ready(LUKSTPM2_DEVICE_DEFAULT);
	lukstang_argv(c, &a);
	r = run_tool((char *const *)a.argv, NULL, 0, out, sizeof(out));
	if (r == 0) {
		lukstang_said_opened(c, out);
		return TANG_OPENED;
	}
	if (r == CLEVIS_EXIT_NO_BINDING || r == CLEVIS_EXIT_NO_HEADER)
		return TANG_NONE;
	report_failure(c, r, out);
	log_console("lifeboat: no clevis binding opened /dev/%s (UUID=%s); asking for its "
		    "passphrase instead\n", c->devname, c->uuid);
	return TANG_FAILED;
}
