/* modpack: kernel modules as the image stores them, xz-compressed, made in parallel. */
#include "gen/kmod/modpack.h"

#include <errno.h>
#include <lzma.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen_report.h"
#include "gen/kmod/modfile.h"

#define MODPACK_MAX_THREADS 16

int modpack_xz(const void *data, size_t len, void **out, size_t *out_len)
{
	size_t cap = lzma_stream_buffer_bound(len), pos = 0;
	uint8_t *buf;

	if (cap == 0)
		return -EFBIG;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	/* CRC32: the check every xz decoder has, the kernel's own included. */
	if (lzma_easy_buffer_encode(MODPACK_XZ_PRESET, LZMA_CHECK_CRC32, NULL, data, len, buf,
				    &pos, cap) != LZMA_OK) {
		free(buf);
		return -EIO;
	}
	*out = buf;
	*out_len = pos;
	return 0;
}

/* The root filesystems' usual module with its dependencies, and the disk
 * controllers of virtual machines (the virtio PCI transport included: 12 ms
 * of unxz on the benchmark's VM) and of most current hardware with the
 * layers under them. */
static const char *const plain_modules[] = {
	"ext4", "jbd2", "mbcache", "crc16", "crc32c_generic",
	"virtio_blk", "virtio_scsi", "ahci", "libahci", "libata", "nvme", "nvme_core",
	"sd_mod", "scsi_mod", "scsi_common", "t10_pi", "crc64_rocksoft", "crc64_rocksoft_generic",
	"crc_t10dif", "crct10dif_common", "crct10dif_generic",
	"virtio", "virtio_ring", "virtio_pci", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
};

bool modpack_plain(const char *name)
{
	for (size_t i = 0; i < sizeof(plain_modules) / sizeof(plain_modules[0]); i++)
		if (strcmp(plain_modules[i], name) == 0)
			return true;
	return false;
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
	if (job->plain) {
		job->data = raw;
		job->len = raw_len;
		return 0;
	}
	r = modpack_xz(raw, raw_len, &job->data, &job->len);
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
