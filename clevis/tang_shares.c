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

/* A run: the shares, their requests, the caller's rule. */
struct run {
	struct tang_share *shares;
	struct share_run *runs;
	size_t n;
	tang_shares_enough_fn enough;
	void *ctx;
	bool stop;     /* the caller has enough: what still runs is abandoned */
	int ok;
};

/* Share i has ended: counted, and the caller asked whether that is enough. */
static void share_ended(struct run *r, size_t i)
{
	r->ok += r->shares[i].n >= 0;
	if (!r->stop)
		r->stop = r->enough(i, r->ctx);
}

/* Every share not ended yet in one batch of the HTTP client, one deadline
 * for them all; each answer taken as it comes, until the caller has enough. */
static void run_batch(struct run *r, int timeout_ms)
{
	struct http_batch *b;
	struct http_req *done;
	char why[HTTP_WHY_MAX];
	int open = http_batch_open(&b, timeout_ms, why, sizeof(why));

	for (size_t i = 0; i < r->n && !r->stop; i++) {
		struct tang_share *s = &r->shares[i];

		if (s->n != -EINPROGRESS || (open == 0 && http_batch_add(b, &r->runs[i].req) == 0))
			continue;
		snprintf(s->why, sizeof(s->why), "%s", open < 0 ? why : r->runs[i].req.why);
		s->n = open < 0 ? open : r->runs[i].req.result;
		share_ended(r, i);
	}
	while (open == 0 && !r->stop && (done = http_batch_next(b))) {
		size_t i = 0;

		while (&r->runs[i].req != done)
			i++;
		share_end(&r->shares[i], &r->runs[i]);
		share_ended(r, i);
	}
	if (open == 0)
		http_batch_close(b);
}

int tang_shares_run(struct tang_share *shares, size_t n, tang_shares_enough_fn enough, void *ctx,
		    int timeout_ms)
{
	struct run r = { .shares = shares, .n = n, .enough = enough, .ctx = ctx };

	r.runs = calloc(n ? n : 1, sizeof(*r.runs));
	if (!r.runs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		shares[i].status = 0;
		shares[i].why[0] = '\0';
		shares[i].n = share_begin(&shares[i], &r.runs[i]);
		if (shares[i].n == 0)
			shares[i].n = -EINPROGRESS;
	}
	/* A share that cannot be asked has ended already. */
	for (size_t i = 0; i < n && !r.stop; i++)
		if (shares[i].n != -EINPROGRESS)
			share_ended(&r, i);
	if (!r.stop)
		run_batch(&r, timeout_ms);
	for (size_t i = 0; i < n; i++) {
		if (shares[i].n == -EINPROGRESS) {
			shares[i].n = -ECANCELED;
			snprintf(shares[i].why, sizeof(shares[i].why), "not waited for: enough others answered");
		}
		mr_pending_free(r.runs[i].mr);
	}
	explicit_bzero(r.runs, n * sizeof(*r.runs));
	free(r.runs);
	return r.ok;
}

/* tang_shares_enough_fn: a count of shares with their plaintext. */
struct count {
	const struct tang_share *shares;
	size_t needed, ok;
};

static bool count_enough(size_t i, void *ctx)
{
	struct count *c = ctx;

	c->ok += c->shares[i].n >= 0;
	return c->ok >= c->needed;
}

int tang_shares_recover(struct tang_share *shares, size_t n, size_t needed, int timeout_ms)
{
	struct count c = { .shares = shares, .needed = needed };

	return tang_shares_run(shares, n, count_enough, &c, timeout_ms);
}
