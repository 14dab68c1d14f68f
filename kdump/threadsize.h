/* threadsize: how many compressing threads the capture starts. The
 * capture kernel runs in what crashkernel= reserved, so its free memory,
 * not its CPU count, is what limits the threads (a machine with many CPUs
 * and a small reservation must not run out of memory halfway through the
 * dump). */
#ifndef LIFEBOAT_KDUMP_THREADSIZE_H
#define LIFEBOAT_KDUMP_THREADSIZE_H

#include <stddef.h>
#include <stdint.h>

#include "kdump/pagecomp.h"

/* The share of the free memory the threads may take, as a divisor: the
 * rest is for the writer's own batch, the target's page cache and dirty
 * pages, and the network stack of a remote target. */
#define THREADSIZE_MEM_SHARE 4
/* A compressor's state, at most (zlib's deflate state at level 1 with
 * the default window is 256 KiB and a few; LZO's 8 KiB). */
#define THREADSIZE_STATE_MAX (272u << 10)

/* Threads besides the writer for mem_avail bytes free in the capture
 * kernel, cpus online and per_thread bytes per thread: one per CPU beyond
 * the writer's, no more than a THREADSIZE_MEM_SHARE-th of mem_avail holds,
 * at most PAGEPOOL_THREADS_MAX. 0 with one CPU (a thread would only take
 * turns with the writer) or too little memory. */
unsigned threadsize_pick(uint64_t mem_avail, unsigned cpus, uint64_t per_thread);

/* The bytes one thread adds (kdump/pagepool.h): two batches of
 * PAGEPOOL_BATCH pages in and out, its compressor's state and its
 * stack. */
uint64_t threadsize_per_thread(const struct pagecomp *comp, size_t page_size);

/* MemAvailable from /proc/meminfo's text, in bytes; 0 when it is not
 * there or not a number. */
uint64_t threadsize_mem_available(const char *meminfo);

#endif
