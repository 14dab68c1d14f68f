/* tang_shares: several Tang shares, their servers asked at once. */
#include "clevis/tang_shares.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clevis/mr.h"

/* What one share needs while its request runs. */
struct share_run {
	struct mr_pending *mr;
	struct http_req req;
	char url[TANG_URL_MAX];
	char reply[MR_REPLY_MAX];
};

/* Begin the exchange and make the request; a share that cannot be asked
 * ends here, said in its why. */
static int share_begin(struct tang_share *s, struct share_run *run)
{
	const char *url = jwe_tang_url(s->jwe);
	char path[300];
	int r;

	if (!url) {
		snprintf(s->why, sizeof(s->why), "its tang binding names no server");
		return -EINVAL;
	}
	r = mr_begin(s->jwe, &run->mr, s->why, sizeof(s->why));
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/rec/%s", mr_pending_kid(run->mr));
	if (tang_url(url, path, run->url, sizeof(run->url)) < 0) {
		snprintf(s->why, sizeof(s->why), "the URL is not http://HOST[:PORT][/PATH]");
		return -EINVAL;
	}
	run->req = (struct http_req){ .url = run->url, .type = "application/jwk+json",
				      .body = mr_pending_request(run->mr), .reply = run->reply,
				      .reply_size = sizeof(run->reply) };
	return 0;
}

/* A request that ended: the share's plaintext, or why not. */
static void share_end(struct tang_share *s, struct share_run *run)
{
	s->status = run->req.status;
	if (run->req.result < 0) {
		s->n = run->req.result;
		snprintf(s->why, sizeof(s->why), "%s%s", run->req.why,
			 run->req.status == 404 ? " (a key it no longer has?)" : "");
		return;
	}
	s->n = mr_finish(run->mr, run->reply, s->plain, sizeof(s->plain));
}

static int run_batch(struct tang_share *shares, struct share_run *runs, size_t n, size_t needed,
		     int timeout_ms)
{
	struct http_batch *b;
	struct http_req *done;
	char why[HTTP_WHY_MAX];
	int ok = 0, r = http_batch_open(&b, timeout_ms, why, sizeof(why));

	for (size_t i = 0; i < n; i++) {
		if (shares[i].n != -EINPROGRESS)
			continue;
		if (r < 0)
			snprintf(shares[i].why, sizeof(shares[i].why), "%s", why);
		else if (http_batch_add(b, &runs[i].req) == 0)
			continue;
		else
			snprintf(shares[i].why, sizeof(shares[i].why), "%s", runs[i].req.why);
		shares[i].n = r < 0 ? r : runs[i].req.result;
	}
	while (r == 0 && (size_t)ok < needed && (done = http_batch_next(b))) {
		size_t i = 0;

		while (&runs[i].req != done)
			i++;
		share_end(&shares[i], &runs[i]);
		ok += shares[i].n >= 0;
	}
	if (r == 0)
		http_batch_close(b);
	for (size_t i = 0; i < n; i++)
		if (shares[i].n == -EINPROGRESS) {
			shares[i].n = -ECANCELED;
			snprintf(shares[i].why, sizeof(shares[i].why), "not waited for: enough others answered");
		}
	return ok;
}

int tang_shares_recover(struct tang_share *shares, size_t n, size_t needed, int timeout_ms)
{
	struct share_run *runs = calloc(n ? n : 1, sizeof(*runs));
	int ok;

	if (!runs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		shares[i].status = 0;
		shares[i].why[0] = '\0';
		shares[i].n = share_begin(&shares[i], &runs[i]);
		if (shares[i].n == 0)
			shares[i].n = -EINPROGRESS;
	}
	ok = run_batch(shares, runs, n, needed, timeout_ms);
	for (size_t i = 0; i < n; i++)
		mr_pending_free(runs[i].mr);
	explicit_bzero(runs, n * sizeof(*runs));
	free(runs);
	return ok;
}
