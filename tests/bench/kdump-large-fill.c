/* kdump-large-fill: fills a guest's memory before it crashes, for
 * tests/bench/kdump-large.sh, with the kinds of page a dump level tells
 * apart, fast under emulation (one system call per MiB or per socket
 * message, no page touched twice):
 *   kdump-large-fill CACHE_MIB ANON_MIB ZERO_MIB SLAB_MIB TMPFS_DIR
 * CACHE: a file on the tmpfs at TMPFS_DIR (page cache, shmem); ANON:
 * anonymous memory, each page written (user pages); ZERO: pipe buffers
 * written with zeros (kernel pages with no owner a level filters but 1,
 * so the writer reads each to find it zero); SLAB: messages of a Unix
 * socket nobody reads (kmalloc-4k slab), each a quarter noise, the rest
 * a pattern, so they compress to about a third, as the kernel memory of
 * a small guest does (docs/kdump.md: 16015 pages, 17.9 MB with zlib). It then sleeps, holding it all,
 * until killed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define MIB (1u << 20)
#define MSG 3500                       /* fits an skb head: kmalloc-4k */
#define SOCK_BYTES (256u * MIB)         /* queued per socket pair */
#define PIPE_BYTES (64u * MIB)

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* A quarter noise, then a short text, as a kernel object holding data. */
static void mixed(uint8_t *buf, size_t len, unsigned n)
{
	size_t half = len / 4;

	for (size_t i = 0; i + 8 <= half; i += 8) {
		uint64_t v = next();
		memcpy(buf + i, &v, 8);
	}
	for (size_t i = half; i < len; i++)
		buf[i] = (uint8_t)("lifeboat kdump large memory "[(i + n) % 28]);
}

static int fill_cache(unsigned mib, const char *dir)
{
	static uint8_t buf[MIB];
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/cache", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	for (unsigned i = 0; i < mib; i++) {
		mixed(buf, sizeof(buf), i);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return -1;
	}
	return close(fd);
}

static int fill_anon(unsigned mib)
{
	size_t len = (size_t)mib * MIB;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	/* Populated (zeroed by the kernel); a word of data in each page. */
	for (size_t off = 0; off < len; off += 4096)
		*(uint64_t *)(p + off) = next();
	return 0;
}

static int fill_zero(unsigned mib)
{
	static uint8_t zeros[MIB];
	unsigned done = 0;

	while (done < mib) {
		int fd[2];
		unsigned n = mib - done < PIPE_BYTES / MIB ? mib - done : PIPE_BYTES / MIB;

		if (pipe(fd) < 0 || fcntl(fd[1], F_SETPIPE_SZ, (int)PIPE_BYTES) < 0)
			return -1;
		for (unsigned i = 0; i < n; i++)
			if (write(fd[1], zeros, MIB) != (ssize_t)MIB)
				return -1;
		done += n;
	}
	return 0;
}

static int fill_slab(unsigned mib)
{
	uint64_t want = (uint64_t)mib * MIB, queued = 0;
	uint8_t msg[MSG];

	while (queued < want) {
		int sv[2], force = (int)SOCK_BYTES;
		uint64_t here = 0;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 ||
		    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUFFORCE, &force, sizeof(force)) < 0 ||
		    fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0)
			return -1;
		/* The queue is counted in the slab's 4 KiB objects. */
		while (here < SOCK_BYTES && queued < want) {
			mixed(msg, sizeof(msg), (unsigned)queued);
			if (write(sv[0], msg, sizeof(msg)) != (ssize_t)sizeof(msg)) {
				if (errno == EAGAIN)
					break;
				return -1;
			}
			here += 4096;
			queued += 4096;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: kdump-large-fill CACHE_MIB ANON_MIB ZERO_MIB SLAB_MIB TMPFS_DIR\n");
		return 2;
	}
	if (fill_cache((unsigned)atoi(argv[1]), argv[5]) < 0 || fill_anon((unsigned)atoi(argv[2])) < 0 ||
	    fill_zero((unsigned)atoi(argv[3])) < 0 || fill_slab((unsigned)atoi(argv[4])) < 0) {
		perror("kdump-large-fill");
		return 1;
	}
	printf("FILL-DONE\n");
	fflush(stdout);
	for (;;)
		pause();
}
