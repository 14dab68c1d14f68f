/* pagepool: compresses the dump's pages on every CPU, in batches given
 * back in order. */
#include "kdump/pagepool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A batch goes FILLING (the writer's) -> QUEUED -> BUSY (a worker's) ->
 * DONE -> emitted, FILLING again. */
enum batch_state { BATCH_FILLING, BATCH_QUEUED, BATCH_BUSY, BATCH_DONE };

struct pool_batch {
	uint8_t *in, *out;                /* PAGEPOOL_BATCH pages; as many bounds */
	uint32_t size[PAGEPOOL_BATCH];    /* compressed size; 0: stored as it is */
	bool zero[PAGEPOOL_BATCH];
	unsigned n;
	enum batch_state state;           /* changed under the lock once threads run */
	uint64_t seq;                     /* the order it was queued in */
};

static bool page_is_zero(const uint8_t *p, size_t len)
{
	return p[0] == 0 && memcmp(p, p + 1, len - 1) == 0;
}

static void batch_compress(const struct pagepool *p, struct pool_batch *b, void *state)
{
	size_t ps = p->o.page_size;

	for (unsigned i = 0; i < b->n; i++) {
		const uint8_t *page = b->in + i * ps;

		b->zero[i] = p->o.find_zero && page_is_zero(page, ps);
		b->size[i] = b->zero[i] ? 0 : (uint32_t)p->o.comp->compress(state, page, ps, b->out + i * p->bound);
	}
}

static int batch_emit(struct pagepool *p, struct pool_batch *b)
{
	size_t ps = p->o.page_size;
	int r = 0;

	for (unsigned i = 0; r == 0 && i < b->n; i++) {
		struct pool_page pg = { .data = b->in + i * ps, .size = (uint32_t)ps, .zero = b->zero[i] };

		if (b->size[i]) {
			pg.data = b->out + i * p->bound;
			pg.size = b->size[i];
			pg.flags = p->o.comp->flag;
		}
		r = p->o.emit(p->o.emit_ctx, &pg);
	}
	b->n = 0;
	if (p->nthreads)
		pthread_mutex_lock(&p->lock);
	b->state = BATCH_FILLING;
	if (p->nthreads)
		pthread_mutex_unlock(&p->lock);
	return r;
}

/* The batch queued first of those waiting (under the lock). */
static struct pool_batch *oldest_queued(struct pagepool *p)
{
	struct pool_batch *oldest = NULL;

	for (unsigned i = 0; i < p->nbatches; i++) {
		struct pool_batch *b = &p->batches[i];

		if (b->state == BATCH_QUEUED && (!oldest || b->seq < oldest->seq))
			oldest = b;
	}
	return oldest;
}

static void *worker_run(void *arg)
{
	struct pool_worker *w = arg;
	struct pagepool *p = w->pool;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct pool_batch *b = NULL;   /* set by the wait before any use */

		while (!p->stop && !(b = oldest_queued(p)))
			pthread_cond_wait(&p->queued, &p->lock);
		if (p->stop)
			break;
		b->state = BATCH_BUSY;
		pthread_mutex_unlock(&p->lock);
		batch_compress(p, b, w->state);
		pthread_mutex_lock(&p->lock);
		b->state = BATCH_DONE;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void batch_submit(struct pagepool *p, struct pool_batch *b)
{
	if (p->nthreads == 0) {
		batch_compress(p, b, p->caller_state);
		b->state = BATCH_DONE;
		return;
	}
	pthread_mutex_lock(&p->lock);
	b->state = BATCH_QUEUED;
	b->seq = p->queued_count++;
	pthread_cond_signal(&p->queued);
	pthread_mutex_unlock(&p->lock);
}

/* Compress one queued batch in the caller (under the lock, released
 * while compressing). */
static void caller_compress(struct pagepool *p, struct pool_batch *b)
{
	b->state = BATCH_BUSY;
	pthread_mutex_unlock(&p->lock);
	batch_compress(p, b, p->caller_state);
	pthread_mutex_lock(&p->lock);
	b->state = BATCH_DONE;
	pthread_cond_broadcast(&p->done);
}

/* A batch that left FILLING, once compressed, emitted. While it is not
 * done, the caller compresses queued batches itself (this one first)
 * rather than wait: it is a worker like the others then, and a worker
 * whose CPU the host gave to someone else (a loaded hypervisor) does not
 * stall the writer. */
static int batch_collect(struct pagepool *p, struct pool_batch *b)
{
	if (p->nthreads) {
		pthread_mutex_lock(&p->lock);
		while (b->state != BATCH_DONE && b->state != BATCH_FILLING) {
			struct pool_batch *other = b->state == BATCH_QUEUED ? b : oldest_queued(p);

			if (other)
				caller_compress(p, other);
			else
				pthread_cond_wait(&p->done, &p->lock);
		}
		pthread_mutex_unlock(&p->lock);
	}
	/* DONE or FILLING now, which only the caller changes. */
	return b->state == BATCH_FILLING ? 0 : batch_emit(p, b);
}

static int batches_alloc(struct pagepool *p)
{
	p->nbatches = p->o.threads ? 2 * p->o.threads + 1 : 1;
	p->batches = calloc(p->nbatches, sizeof(*p->batches));
	if (!p->batches)
		return -ENOMEM;
	for (unsigned i = 0; i < p->nbatches; i++) {
		p->batches[i].in = malloc(PAGEPOOL_BATCH * p->o.page_size);
		p->batches[i].out = malloc(PAGEPOOL_BATCH * p->bound);
		if (!p->batches[i].in || !p->batches[i].out)
			return -ENOMEM;
	}
	return 0;
}

static void threads_start(struct pagepool *p, void **states)
{
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PAGEPOOL_WORKER_STACK);
	for (unsigned i = 0; i < p->o.threads; i++) {
		p->workers[i] = (struct pool_worker){ .pool = p, .state = states[i] };
		if (pthread_create(&p->threads[i], &attr, worker_run, &p->workers[i]) != 0)
			break;
		states[i] = NULL;
		p->nthreads++;
	}
	pthread_attr_destroy(&attr);
}

int pagepool_open(struct pagepool *p, const struct pagepool_opts *o, char *why, size_t why_size)
{
	void *states[PAGEPOOL_THREADS_MAX + 1] = { 0 };
	unsigned nstates;
	int r;

	memset(p, 0, sizeof(*p));
	p->o = *o;
	if (p->o.threads > PAGEPOOL_THREADS_MAX)
		p->o.threads = PAGEPOOL_THREADS_MAX;
	p->bound = o->comp->bound(o->page_size);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->queued, NULL);
	pthread_cond_init(&p->done, NULL);
	r = batches_alloc(p);
	/* One state per worker, and the caller's, the last. */
	nstates = p->o.threads + 1;
	for (unsigned i = 0; r == 0 && i < nstates; i++)
		r = o->comp->state_new(&states[i], why, why_size);
	if (r == 0) {
		p->caller_state = states[p->o.threads];
		states[p->o.threads] = NULL;
	}
	if (r == 0 && p->o.threads)
		threads_start(p, states);
	for (unsigned i = 0; i < nstates; i++)
		if (states[i])
			o->comp->state_free(states[i]);
	return r;
}

int pagepool_page(struct pagepool *p, uint8_t **buf)
{
	struct pool_batch *b = &p->batches[p->head];

	if (b->n == PAGEPOOL_BATCH) {
		int r;

		batch_submit(p, b);
		p->head = (p->head + 1) % p->nbatches;
		b = &p->batches[p->head];
		r = batch_collect(p, b);
		if (r < 0)
			return r;
	}
	*buf = b->in + b->n * p->o.page_size;
	b->n++;
	return 0;
}

int pagepool_finish(struct pagepool *p)
{
	int r = 0;

	if (p->batches[p->head].n)
		batch_submit(p, &p->batches[p->head]);
	for (unsigned k = 1; r == 0 && k <= p->nbatches; k++)
		r = batch_collect(p, &p->batches[(p->head + k) % p->nbatches]);
	return r;
}

void pagepool_close(struct pagepool *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->queued);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nthreads; i++) {
		pthread_join(p->threads[i], NULL);
		p->o.comp->state_free(p->workers[i].state);
	}
	if (p->caller_state)
		p->o.comp->state_free(p->caller_state);
	for (unsigned i = 0; p->batches && i < p->nbatches; i++) {
		free(p->batches[i].in);
		free(p->batches[i].out);
	}
	free(p->batches);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->queued);
	pthread_cond_destroy(&p->done);
}
