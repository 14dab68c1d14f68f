/* pagepool: compresses the dump's pages on every CPU of the capture
 * kernel while the writer keeps their order. The writer hands pages in
 * order; they are gathered in batches of PAGEPOOL_BATCH, each batch
 * compressed whole by one worker thread, or by the writer itself when it
 * needs a batch no worker has started, and the batches given back to the
 * writer's emit callback in the order they were filled. A batch's slot is
 * filled again only after it was emitted, so memory is fixed: 2 x threads
 * + 1 batches of PAGEPOOL_BATCH pages, in and out (0.55 MiB each with 4
 * KiB pages and LZO), plus one compressor state per thread and the
 * writer's. With no threads, a batch is compressed by the caller when it
 * is full. */
#ifndef LIFEBOAT_KDUMP_PAGEPOOL_H
#define LIFEBOAT_KDUMP_PAGEPOOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdump/pagecomp.h"

#define PAGEPOOL_BATCH 64
#define PAGEPOOL_THREADS_MAX 16
/* A worker's stack: small, as its work is in the heap and the capture's
 * memory is what crashkernel= reserved (kdump/threadsize.h counts it). */
#define PAGEPOOL_WORKER_STACK (256u << 10)

/* One page as the writer stores it. */
struct pool_page {
	const uint8_t *data;
	uint32_t size;
	uint32_t flags;       /* a DUMP_DH_COMPRESSED_* flag, or 0: as it is */
	bool zero;            /* all zeros (only looked for with find_zero) */
};

typedef int (*pagepool_emit_fn)(void *ctx, const struct pool_page *page);

struct pagepool_opts {
	const struct pagecomp *comp;
	size_t page_size;
	unsigned threads;        /* 0: compress in the caller */
	bool find_zero;          /* mark all-zero pages instead of compressing them */
	pagepool_emit_fn emit;
	void *emit_ctx;
};

struct pool_batch;
struct pagepool;

struct pool_worker {
	struct pagepool *pool;
	void *state;                      /* its compressor's */
};

struct pagepool {
	struct pagepool_opts o;
	size_t bound;                     /* o.comp->bound(page_size) */
	struct pool_batch *batches;
	unsigned nbatches, head;          /* head: the batch being filled */
	void *caller_state;               /* the writer's own */
	struct pool_worker workers[PAGEPOOL_THREADS_MAX];
	pthread_t threads[PAGEPOOL_THREADS_MAX];
	unsigned nthreads;                /* started */
	pthread_mutex_t lock;
	pthread_cond_t queued, done;
	uint64_t queued_count;            /* batches queued so far */
	bool stop;
};

/* Allocate the batches and compressor states and start the threads.
 * Returns 0, -ENOMEM, or -ENOENT with the reason in why (the compressor's
 * library is missing); threads that cannot be started are done without. */
int pagepool_open(struct pagepool *p, const struct pagepool_opts *o, char *why, size_t why_size);
/* Where the next page's bytes go (page_size of them). Emits the oldest
 * batch first when its slot is needed; returns 0 or the emit callback's
 * error. */
int pagepool_page(struct pagepool *p, uint8_t **buf);
/* Compress what is left and emit every batch, in order. Returns 0 or the
 * emit callback's first error. */
int pagepool_finish(struct pagepool *p);
/* Stop the threads and free everything (also after an error). */
void pagepool_close(struct pagepool *p);

#endif
