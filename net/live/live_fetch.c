/* live_fetch: libcurl's easy interface, one transfer at a time, resumed. */
#include "net/live/live_fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/curlfn.h"
#include "bootlib/log.h"
#include "bootlib/patience.h"
#include "bootlib/timeline.h"
#include "common/layout.h"
#include "net/live/live_hash.h"

/* A transfer under way: what is in the file and hashed so far. */
struct fetch_run {
	struct live_fetch *f;
	struct curlfn fn;
	struct live_hash hash;
	int fd;
	int write_err;               /* -errno of the file's write */
	uint64_t have;               /* bytes in the file */
	uint64_t total;              /* the whole file's size once a server said it; 0: unknown */
	uint64_t start_ms, said_ms;
	unsigned int quarters;       /* of the progress marked in the timeline */
	char error[CURL_ERROR_SIZE];
};

static size_t take_data(char *data, size_t size, size_t n, void *arg)
{
	struct fetch_run *r = arg;
	size_t len = size * n;

	if (r->f->max_bytes && r->have + len > r->f->max_bytes) {
		r->write_err = -EFBIG;
		return 0;
	}
	for (size_t done = 0; done < len;) {
		ssize_t w = write(r->fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->write_err = w < 0 ? -errno : -EIO;
			return 0;   /* libcurl ends the transfer */
		}
		done += (size_t)w;
	}
	live_hash_update(&r->hash, data, len);
	r->have += len;
	return len;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/* Every LIVE_FETCH_SAY_MS on the console; each quarter in the timeline. */
static void say_progress(struct fetch_run *r)
{
	uint64_t now = clock_now_ms(), ms = now - r->start_ms;
	double rate = ms ? mib(r->have) * 1000.0 / (double)ms : 0;
	unsigned int quarters = r->total ? (unsigned int)(r->have * 4 / r->total) : 0;

	/* The last quarter passed, once: a jump past two marks one. */
	if (quarters > r->quarters && quarters < 4) {
		r->quarters = quarters;
		timeline_mark("livefetch", "%u%% %" PRIu64 " bytes", 25 * quarters, r->have);
	}
	if (now - r->said_ms < LIVE_FETCH_SAY_MS)
		return;
	r->said_ms = now;
	if (r->total)
		log_info("%s: %.1f of %.1f MiB (%.1f MiB/s)", r->f->what, mib(r->have), mib(r->total), rate);
	else
		log_info("%s: %.1f MiB (%.1f MiB/s)", r->f->what, mib(r->have), rate);
}

static int progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	struct fetch_run *r = arg;

	(void)dlnow, (void)ultotal, (void)ulnow;
	/* This transfer's total is what was left when it started. */
	if (dltotal > 0 && !r->total)
		r->total = r->have - (uint64_t)dlnow + (uint64_t)dltotal;
	say_progress(r);
	return 0;
}

/* One transfer from r->have on. Returns libcurl's code; *status the HTTP one. */
static CURLcode fetch_once(struct fetch_run *r, long *status)
{
	struct curlfn *fn = &r->fn;
	CURL *c = fn->easy_init();
	CURLcode code;

	*status = 0;
	if (!c)
		return CURLE_OUT_OF_MEMORY;
	r->error[0] = '\0';
	fn->easy_setopt(c, CURLOPT_URL, r->f->url);
	fn->easy_setopt(c, CURLOPT_ERRORBUFFER, r->error);
	/* HTTP only, whatever libcurl was built with, no redirect, no proxy
	 * of an environment that is not the image's. */
	fn->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	fn->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	fn->easy_setopt(c, CURLOPT_PROXY, "");
	fn->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	fn->easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	fn->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)LIVE_FETCH_STALL_SEC);
	fn->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	fn->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)LIVE_FETCH_STALL_SEC);
	if (r->f->ca)
		fn->easy_setopt(c, CURLOPT_CAINFO, r->f->ca);
	fn->easy_setopt(c, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)r->have);
	fn->easy_setopt(c, CURLOPT_WRITEFUNCTION, take_data);
	fn->easy_setopt(c, CURLOPT_WRITEDATA, r);
	fn->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	fn->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress);
	fn->easy_setopt(c, CURLOPT_XFERINFODATA, r);
	code = fn->easy_perform(c);
	fn->easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	fn->easy_cleanup(c);
	return code;
}

/* Back to an empty file: the server cannot resume, or its file changed. */
static int fetch_restart(struct fetch_run *r)
{
	if (ftruncate(r->fd, 0) < 0 || lseek(r->fd, 0, SEEK_SET) < 0)
		return -errno;
	live_hash_restart(&r->hash);
	r->have = r->total = 0;
	r->quarters = 0;
	return 0;
}

enum outcome { FETCH_DONE, FETCH_RETRY, FETCH_RESTART, FETCH_FAIL };

static int fail(struct fetch_run *r, int err, const char *fmt, const char *detail)
{
	snprintf(r->f->why, sizeof(r->f->why), fmt, r->f->what, r->f->shown, detail);
	return err;
}

/* What a transfer that ended with code comes to: *err and why for a failure. */
static enum outcome fetch_judge(struct fetch_run *r, CURLcode code, long status, int *err)
{
	const char *detail = r->error[0] ? r->error : r->fn.easy_strerror(code);

	if (code == CURLE_OK)
		return FETCH_DONE;
	if (r->write_err == -EFBIG)
		*err = fail(r, -EFBIG, "%s %s is larger than a checksum file%s", "");
	else if (r->write_err)
		*err = fail(r, r->write_err, "%s %s: writing it to RAM failed (%s); the machine "
			    "needs more memory than the image's size", strerror(-r->write_err));
	else if (code == CURLE_RANGE_ERROR || status == 416)
		return FETCH_RESTART;
	else if (code == CURLE_HTTP_RETURNED_ERROR && status == 404)
		*err = fail(r, -ENOENT, "%s %s: the server has no such file (HTTP 404)%s", "");
	else if (code == CURLE_HTTP_RETURNED_ERROR && status >= 400 && status < 500)
		*err = fail(r, -EACCES, "%s %s: the server refused it (%s)", detail);
	else if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE)
		*err = fail(r, -EACCES, "%s %s: the server's certificate does not verify against the "
			    "image's CA bundle (%s); give lifeboat build --live-ca the CA that signed it "
			    "(or install it on the build host) and rebuild the image", detail);
	else if (code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL)
		*err = fail(r, -EINVAL, "%s %s: libcurl refuses the URL (%s)", detail);
	else {
		fail(r, -EIO, "%s %s: %s", detail);
		return FETCH_RETRY;
	}
	return FETCH_FAIL;
}

static int fetch_open(struct fetch_run *r)
{
	char detail[LIVE_FETCH_WHY_MAX - 64];
	int err = curlfn_open(&r->fn, detail, sizeof(detail));

	if (err < 0) {
		snprintf(r->f->why, sizeof(r->f->why), "libcurl cannot be loaded (%s); build the "
			 "image with --live", detail);
		return err;
	}
	err = live_hash_start(&r->hash, LAYOUT_LIBCRYPTO, detail, sizeof(detail));
	if (err == -ELIBACC)
		snprintf(r->f->why, sizeof(r->f->why), "libcrypto cannot be loaded to check %s (%.200s); "
			 "build the image with --live", r->f->what, detail);
	else if (err < 0)
		snprintf(r->f->why, sizeof(r->f->why), "%s %s: its SHA-256 cannot be computed (%.200s)",
			 r->f->what, r->f->shown, detail);
	if (err < 0)
		return err;
	r->fd = open(r->f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (r->fd < 0)
		return fail(r, -errno, "%s %s: creating its file in RAM failed (%s)", strerror(errno));
	r->start_ms = r->said_ms = clock_now_ms();
	return 0;
}

/* Transfers until the file is whole, a failure that another try would not
 * mend, or rd.timeout= of nothing from the server. */
static int fetch_loop(struct fetch_run *r)
{
	struct patience p;
	char whom[LIVE_FETCH_WHY_MAX];
	int err = 0;

	snprintf(whom, sizeof(whom), "the server of %s", r->f->shown);
	patience_start(&p, whom, clock_deadline(clock_now_ms(), r->f->timeout_sec));
	for (;;) {
		uint64_t before = r->have;
		long status;
		CURLcode code = fetch_once(r, &status);
		enum outcome o = fetch_judge(r, code, status, &err);

		if (o == FETCH_DONE || o == FETCH_FAIL)
			return o == FETCH_DONE ? 0 : err;
		if (o == FETCH_RESTART) {
			log_info("%s: the server cannot resume at byte %" PRIu64 "; fetching it from the "
				 "start", r->f->what, r->have);
			err = fetch_restart(r);
			if (err < 0)
				return fail(r, err, "%s %s: emptying its file failed (%s)", strerror(-err));
			continue;
		}
		/* The server gave something: rd.timeout= counts again from now. */
		if (r->have > before)
			patience_start(&p, whom, clock_deadline(clock_now_ms(), r->f->timeout_sec));
		log_info("%s; trying again from byte %" PRIu64, r->f->why, r->have);
		if (!patience_wait(&p, r->f->why)) {
			char last[LIVE_FETCH_WHY_MAX];

			snprintf(last, sizeof(last), "%s", r->f->why);
			snprintf(r->f->why, sizeof(r->f->why), "%.200s (gave up after rd.timeout=%u s with "
				 "nothing from the server; %" PRIu64 " bytes had come)", last,
				 r->f->timeout_sec, r->have);
			return -ETIMEDOUT;
		}
	}
}

int live_fetch_run(struct live_fetch *f)
{
	struct fetch_run r = { .f = f, .fd = -1 };
	int err;

	f->why[0] = '\0';
	f->bytes = 0;
	if (!f->shown)
		f->shown = f->url;
	err = fetch_open(&r);
	if (err == 0)
		err = fetch_loop(&r);
	if (r.fd >= 0 && close(r.fd) < 0 && err == 0)
		err = fail(&r, -errno, "%s %s: closing its file failed (%s)", strerror(errno));
	if (err == 0 && live_hash_final(&r.hash, f->sum) < 0)
		err = fail(&r, -EIO, "%s %s: libcrypto failed computing its SHA-256%s", "");
	live_hash_free(&r.hash);
	if (err < 0)
		return err;
	f->bytes = r.have;
	f->ms = clock_now_ms() - r.start_ms;
	return 0;
}
