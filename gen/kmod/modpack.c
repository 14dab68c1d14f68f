/* modpack: kernel modules as the image stores them, gzip-compressed, made in parallel. */
#include "gen/kmod/modpack.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gen/gen_report.h"
#include "gen/kmod/modfile.h"

#define MODPACK_MAX_THREADS 16

int modpack_gzip(const void *data, size_t len, void **out, size_t *out_len)
{
	z_stream zs;
	gz_header gzh;
	unsigned char *buf;
	size_t cap;
	int rc;

	memset(&zs, 0, sizeof(zs));
	memset(&gzh, 0, sizeof(gzh));
	if (len > UINT32_MAX)
		return -EFBIG;
	/* windowBits 15 + 16: a gzip wrapper, which the init recognises. */
	if (deflateInit2(&zs, MODPACK_GZIP_LEVEL, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	gzh.os = 3;  /* unix, whatever zlib was built with: reproducible */
	cap = deflateBound(&zs, (uLong)len);
	buf = malloc(cap);
	if (!buf || deflateSetHeader(&zs, &gzh) != Z_OK) {
		free(buf);
		deflateEnd(&zs);
		return -ENOMEM;
	}
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = buf;
	zs.avail_out = (uInt)cap;
	rc = deflate(&zs, Z_FINISH);
	*out_len = cap - zs.avail_out;
	deflateEnd(&zs);
	if (rc != Z_STREAM_END) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	return 0;
}

struct pool {
	struct modpack_job *jobs;
	size_t n;
	atomic_size_t next;
	atomic_int err;
};

static int job_run(struct modpack_job *job)
{
	void *raw;
	size_t raw_len;
	int r = modfile_read(job->src, &raw, &raw_len);

	if (r < 0)
		return r;
	r = modpack_gzip(raw, raw_len, &job->data, &job->len);
	free(raw);
	if (r < 0)
		gen_error("compressing module %s for the image failed: %s", job->src, strerror(-r));
	return r;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	while (atomic_load(&p->err) == 0 && (i = atomic_fetch_add(&p->next, 1)) < p->n) {
		int r = job_run(&p->jobs[i]);

		if (r < 0) {
			int none = 0;

			atomic_compare_exchange_strong(&p->err, &none, r);
		}
	}
	return NULL;
}

int modpack_run(struct modpack_job *jobs, size_t n)
{
	pthread_t threads[MODPACK_MAX_THREADS];
	struct pool p = { .jobs = jobs, .n = n };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n_threads = cpus < 1 ? 1 : (size_t)cpus, started = 0;

	if (n_threads > MODPACK_MAX_THREADS)
		n_threads = MODPACK_MAX_THREADS;
	if (n_threads > n)
		n_threads = n;
	atomic_init(&p.next, 0);
	atomic_init(&p.err, 0);
	/* The calling thread works too; the others are helpers. */
	for (; started + 1 < n_threads; started++)
		if (pthread_create(&threads[started], NULL, worker, &p) != 0)
			break;
	worker(&p);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	return atomic_load(&p.err);
}
