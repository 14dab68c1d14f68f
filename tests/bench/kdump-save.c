/* kdump-save: the capture's writer on a saved ELF core, for the benchmark
 * (tests/bench/kdump.sh): kdump-save CORE OUT LEVEL [flat]. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdump/diskdump.h"

int main(int argc, char **argv)
{
	struct diskdump_opts opts = { 0 };
	struct diskdump_stats st;
	struct vmcoreinfo vi;
	struct elfcore core;
	struct dump_sink sink;
	int in, out, r;

	if (argc < 4) {
		fprintf(stderr, "usage: kdump-save CORE OUT LEVEL [flat]\n");
		return 2;
	}
	in = open(argv[1], O_RDONLY);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || out < 0 || elfcore_open(&core, in) < 0 || !core.vmcoreinfo ||
	    vmcoreinfo_parse(core.vmcoreinfo, core.vmcoreinfo_size, &vi) < 0) {
		fprintf(stderr, "kdump-save: %s is not a readable vmcore with VMCOREINFO\n", argv[1]);
		return 1;
	}
	opts.dump_level = (unsigned)atoi(argv[3]);
	dump_sink_init(&sink, out, argc > 4 && strcmp(argv[4], "flat") == 0);
	r = dump_sink_begin(&sink);
	if (r == 0)
		r = diskdump_write(&core, &vi, &sink, &opts, &st);
	if (r == 0)
		r = dump_sink_end(&sink);
	if (r == 0)
		r = fsync(out);
	printf("pages present %llu, written %llu, zero %llu, filtered %llu\n",
	       (unsigned long long)st.pages_total, (unsigned long long)st.pages_written,
	       (unsigned long long)st.pages_zero, (unsigned long long)st.pages_filtered);
	return r < 0;
}
