/* liveroot: root=live:URL, from the command line's words to /sysroot. */
#include "net/liveroot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootlib/log.h"
#include "bootlib/timeline.h"
#include "common/fileread.h"
#include "common/layout.h"
#include "net/live/live_fetch.h"
#include "net/live/live_mount.h"
#include "net/live/live_sum.h"
#include "net/live/live_url.h"

#define LIVE_PART LAYOUT_LIVE_IMAGE ".part"
#define LIVE_SUM_FILE LAYOUT_LIVE_DIR "/rootfs.img.sha256"
/* A checksum file is a few lines; a longer answer is not one. */
#define LIVE_SUM_MAX 65536

/* What the image is checked against. */
struct live_check {
	bool have;
	uint8_t sum[SHA256_LEN];
	const char *from;            /* "rd.live.sha256=", or the checksum file's URL */
};

static int say(char *why, size_t size, int err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int say(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return err;
}

/* The command line's part, before anything is fetched: a hash that is
 * malformed, an overlay size tmpfs would not take, or an http:// image
 * that nothing vouches for is refused at once. */
static int live_words(const struct live_url *u, const struct live_args *live,
		      struct live_check *check, char *why, size_t size)
{
	if (live->sha256[0]) {
		if (live_sum_from_hex(live->sha256, strlen(live->sha256), check->sum) < 0)
			return say(why, size, -EINVAL, "rd.live.sha256= is not 64 hexadecimal digits; "
				   "give the image's sha256sum");
		check->have = true;
		check->from = "rd.live.sha256=";
	}
	if (live->overlay_size[0] && !live_args_size_ok(live->overlay_size))
		return say(why, size, -EINVAL, "rd.live.overlay.size=%s is not a size (digits, then k, m, "
			   "g or %%)", live->overlay_size);
	if (!check->have && !u->https && !live->unverified)
		return say(why, size, -EPERM, "the live image %s comes over plain http and "
			   "rd.live.sha256= does not say which image that must be: anyone on the way "
			   "could send another. Give rd.live.sha256=HASH (its sha256sum), use https://, "
			   "or allow it with rd.live.unverified=1", u->shown);
	return 0;
}

static int fetch_file(struct live_fetch *f, const struct net_request *req, char *why, size_t size)
{
	int r;

	f->ca = LAYOUT_LIVE_CA;
	f->timeout_sec = req->timeout_sec;
	r = live_fetch_run(f);
	if (r < 0 && r != -ENOENT)
		return say(why, size, r, "%s", f->why);
	return r;
}

/* URL.sha256 beside the image, when the command line gives no hash. */
static int sum_beside(const struct live_url *u, const struct net_request *req,
		      struct live_check *check, char *why, size_t size)
{
	struct live_fetch f = { .url = u->sum_url, .shown = u->sum_shown,
				.what = "the live image's checksum file", .path = LIVE_SUM_FILE,
				.max_bytes = LIVE_SUM_MAX };
	char *text;
	size_t len;
	int r = fetch_file(&f, req, why, size);

	if (r == -ENOENT) {
		log_info("%s: none on the server (HTTP 404)", u->sum_shown);
		return 0;
	}
	if (r < 0)
		return r;
	r = file_read_all(LIVE_SUM_FILE, LIVE_SUM_MAX, &text, &len);
	if (r < 0)
		return say(why, size, r, "reading %s failed: %s", LIVE_SUM_FILE, strerror(-r));
	r = live_sum_parse(text, len, u->name, check->sum);
	free(text);
	if (r < 0)
		return say(why, size, r, "%s has %s for %s in sha256sum's format (\"HASH  %s\"); the "
			   "image is refused", u->sum_shown, r == -ENOENT ? "no line" : "a malformed line",
			   u->name, u->name);
	check->have = true;
	check->from = u->sum_shown;
	return 0;
}

/* The image into RAM, and checked: renamed to its name only when whole
 * and matching, so that nothing half-fetched or refused is ever mounted. */
static int fetch_image(const struct live_url *u, const struct net_request *req,
		       const struct live_check *check, char *why, size_t size)
{
	struct live_fetch f = { .url = u->url, .shown = u->shown, .what = "the live image", .path = LIVE_PART };
	char got[LIVE_SUM_HEX];
	int r;

	timeline_mark("livefetch", "%s", u->shown);
	r = fetch_file(&f, req, why, size);
	if (r == -ENOENT)
		return say(why, size, r, "%s", f.why);
	if (r < 0)
		return r;
	timeline_mark("livefetched", "%llu bytes in %llu ms", (unsigned long long)f.bytes,
		      (unsigned long long)f.ms);
	live_sum_to_hex(f.sum, got);
	if (check->have && memcmp(check->sum, f.sum, SHA256_LEN) != 0) {
		char want[LIVE_SUM_HEX];

		unlink(LIVE_PART);
		live_sum_to_hex(check->sum, want);
		return say(why, size, -EBADMSG, "the live image %s does not match its SHA-256 and is "
			   "refused: expected %s (%s), got %s; check the image on the server and the "
			   "hash", u->shown, want, check->from, got);
	}
	if (check->have)
		log_info("the live image %s matches its SHA-256 %s (%s)", u->shown, got, check->from);
	else
		log_warn("the live image %s is not checked against a hash (SHA-256 %s): %s", u->shown, got,
			 u->https ? "its server's certificate is all that vouches for it"
				  : "rd.live.unverified=1 allows it");
	if (rename(LIVE_PART, LAYOUT_LIVE_IMAGE) < 0)
		return say(why, size, -errno, "renaming %s to %s failed: %s", LIVE_PART,
			   LAYOUT_LIVE_IMAGE, strerror(errno));
	return 0;
}

static int live_dir(char *why, size_t size)
{
	if ((mkdir(LAYOUT_EXITRD_DIR, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(LAYOUT_LIVE_DIR, 0700) < 0 && errno != EEXIST))
		return say(why, size, -errno, "making %s failed: %s", LAYOUT_LIVE_DIR, strerror(errno));
	return 0;
}

int liveroot_mount(const struct net_request *req, const struct live_args *live, char *why,
		   size_t why_size)
{
	struct live_check check = { .have = false };
	struct live_url u;
	char text[256];
	int r = live_url_parse(req->root.root, &u);

	/* Not its ?query, which may hold a token. */
	if (r < 0)
		return say(why, why_size, r, "root=%.*s: not an http:// or https:// URL of an image "
			   "(root=live:http://SERVER[:PORT]/PATH/IMAGE, an IPv6 server in brackets)",
			   (int)strcspn(req->root.root, "?"), req->root.root);
	r = live_words(&u, live, &check, why, why_size);
	if (r < 0)
		return r;
	/* An image fetched and checked by an earlier try is not fetched again. */
	if (access(LAYOUT_LIVE_IMAGE, F_OK) == 0)
		return live_mount(LAYOUT_LIVE_IMAGE, live->overlay_size, why, why_size);
	r = net_bring_up(req->net, text, sizeof(text));
	if (r < 0)
		return say(why, why_size, r, "the network for the live image: %s", text);
	r = live_dir(why, why_size);
	if (r == 0 && !check.have)
		r = sum_beside(&u, req, &check, why, why_size);
	if (r == 0)
		r = fetch_image(&u, req, &check, why, why_size);
	if (r == 0)
		r = live_mount(LAYOUT_LIVE_IMAGE, live->overlay_size, why, why_size);
	if (r == 0)
		timeline_mark("mounted", "%s overlay", u.shown);
	return r;
}
