/* kdump-save: the capture's writers on a saved ELF core, for the benchmark
 * (tests/bench/kdump.sh) and for measuring the ELF writer's segment split:
 * kdump-save CORE OUT LEVEL [flat | elf [MIN_GAP] | zlib|lzo|zstd [THREADS]].
 * THREADS: compressing threads besides the writer (default: as the
 * capture picks them, from the online CPUs and MemAvailable:
 * kdump/threadsize.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdump/diskdump.h"
#include "kdump/elfdump.h"
#include "kdump/threadsize.h"

static int save_kdump(struct elfcore *core, struct vmcoreinfo *vi, int out, unsigned level, int flat,
		      enum kdump_compress comp, unsigned threads)
{
	struct diskdump_opts opts = { .dump_level = level, .compress = comp, .threads = threads };
	struct diskdump_stats st;
	struct dump_sink sink;
	int r;

	dump_sink_init(&sink, out, flat);
	r = dump_sink_begin(&sink);
	if (r == 0)
		r = diskdump_write(core, vi, &sink, &opts, &st);
	if (r == 0)
		r = dump_sink_end(&sink);
	printf("pages present %llu, written %llu (compressed %llu), zero %llu, filtered %llu; "
	       "%s, %u thread(s)%s%s\n",
	       (unsigned long long)st.pages_total, (unsigned long long)st.pages_written,
	       (unsigned long long)st.pages_compressed, (unsigned long long)st.pages_zero,
	       (unsigned long long)st.pages_filtered,
	       pagecomp_flag_name(st.compress_flag), st.threads,
	       st.fallback_why[0] ? "; fell back: " : "", st.fallback_why);
	return r;
}

/* The capture's own choice (kdump/capture.c). */
static unsigned default_threads(enum kdump_compress comp)
{
	char meminfo[8192] = "";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/meminfo", "r");

	if (f) {
		meminfo[fread(meminfo, 1, sizeof(meminfo) - 1, f)] = 0;
		fclose(f);
	}
	return threadsize_pick(threadsize_mem_available(meminfo), cpus > 0 ? (unsigned)cpus : 1,
			       threadsize_per_thread(pagecomp_get(comp), 4096));
}

static int save_elf(struct elfcore *core, struct vmcoreinfo *vi, int out, unsigned level, uint64_t min_gap)
{
	struct elfdump_opts opts = { .dump_level = level, .min_gap = min_gap };
	struct elfdump_stats st;
	int r = elfdump_write(core, vi, out, &opts, &st);

	printf("segments %llu (min gap %llu pages), pages written %llu, zero %llu, filtered %llu, "
	       "file size %llu\n", (unsigned long long)st.segments, (unsigned long long)st.min_gap,
	       (unsigned long long)st.pages_written, (unsigned long long)st.pages_zero,
	       (unsigned long long)st.pages_filtered, (unsigned long long)st.bytes);
	return r;
}

int main(int argc, char **argv)
{
	struct vmcoreinfo vi;
	struct elfcore core;
	const char *mode = argc > 4 ? argv[4] : "";
	enum kdump_compress comp = COMPRESS_ZLIB;
	unsigned threads;
	int in, out, r;

	if (argc < 4) {
		fprintf(stderr, "usage: kdump-save CORE OUT LEVEL [flat | elf [MIN_GAP] | zlib|lzo|zstd [THREADS]]\n");
		return 2;
	}
	in = open(argv[1], O_RDONLY);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || out < 0 || elfcore_open(&core, in) < 0 || !core.vmcoreinfo ||
	    vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi) < 0) {
		fprintf(stderr, "kdump-save: %s is not a readable vmcore with VMCOREINFO\n", argv[1]);
		return 1;
	}
	kdump_conf_compress_parse(mode, &comp);
	threads = argc > 5 ? (unsigned)atoi(argv[5]) : default_threads(comp);
	if (strcmp(mode, "elf") == 0)
		r = save_elf(&core, &vi, out, (unsigned)atoi(argv[3]), argc > 5 ? strtoull(argv[5], NULL, 0) : 0);
	else if (kdump_conf_compress_parse(mode, &comp) == 0)
		r = save_kdump(&core, &vi, out, (unsigned)atoi(argv[3]), 0, comp, threads);
	else
		r = save_kdump(&core, &vi, out, (unsigned)atoi(argv[3]), strcmp(mode, "flat") == 0, comp, threads);
	if (r == 0)
		r = fsync(out);
	if (r < 0)
		fprintf(stderr, "kdump-save: writing %s failed: %s\n", argv[2], strerror(-r));
	return r < 0;
}
