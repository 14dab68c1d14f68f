/* live_fetch: one file over HTTP(S) into a file of the image's RAM, hashed
 * as it arrives. A transfer that breaks is taken up where it stopped (a
 * Range request; from the start when the server cannot resume), again and
 * again while the server keeps answering within rd.timeout=
 * (bootlib/patience.c); a large one says its progress on the console and
 * in the timeline. */
#ifndef LIFEBOAT_NET_LIVE_LIVE_FETCH_H
#define LIFEBOAT_NET_LIVE_LIVE_FETCH_H

#include <stdint.h>

#include "net/live/live_sum.h"

#define LIVE_FETCH_WHY_MAX 320
/* The console hears how far a transfer is this often. */
#define LIVE_FETCH_SAY_MS 5000
/* A connection that brings no byte this long is broken: taken up again. */
#define LIVE_FETCH_STALL_SEC 15

struct live_fetch {
	const char *url;
	const char *shown;           /* url as messages show it (live_url.h); NULL: url */
	const char *what;            /* "the live image", for messages */
	const char *path;            /* the file written (created, truncated) */
	const char *ca;              /* the CA bundle for https:// */
	uint64_t max_bytes;          /* a longer file is refused; 0: no bound */
	unsigned int timeout_sec;    /* rd.timeout=: how long the server may give nothing; 0: forever */
	/* Set by live_fetch_run: */
	uint8_t sum[SHA256_LEN];     /* of the whole file */
	uint64_t bytes;
	uint64_t ms;                 /* how long it took */
	char why[LIVE_FETCH_WHY_MAX];
};

/* Fetch f->url into f->path. Returns 0; -ENOENT when the server says it
 * has no such file (HTTP 404); -ETIMEDOUT when it gave nothing within
 * rd.timeout=; -EFBIG over max_bytes; another -errno. why says what
 * failed in words, naming the URL. */
int live_fetch_run(struct live_fetch *f);

#endif
