/* timeline_cmd: print the boot timeline as a table, or draw it as SVG. */
#include "gen/cmd/timeline_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/timeline_format.h"
#include "gen/cmd/timeline_read.h"
#include "gen/cmd/timeline_svg.h"
#include "gen/gen_report.h"

/* Where the init leaves it; /run moves into the real root at switch_root. */
#define TIMELINE_DEFAULT TIMELINE_FORMAT_PATH

static void timeline_usage(FILE *f)
{
	fprintf(f, "usage: lifeboat timeline [FILE] [--svg OUT.svg]\n"
		   "  FILE defaults to %s, written by the init during the boot.\n"
		   "  Without --svg: a table of the phases, when each happened and how long it took.\n"
		   "  --svg OUT: draw the phases as bars on a time axis into OUT.\n", TIMELINE_DEFAULT);
}

static void table_print(const struct timeline *tl)
{
	unsigned long long prev = 0;

	printf("%10s  %10s  %-8s  %s\n", "TIME", "TOOK", "PHASE", "DETAIL");
	for (size_t i = 0; i < tl->len; i++) {
		const struct timeline_mark *m = &tl->marks[i];
		double took = m->usec >= prev ? (double)(m->usec - prev) / 1e6 : 0;

		printf("%9.6fs  %9.6fs  %-*s%s%s\n", (double)m->usec / 1e6, took, *m->detail ? 8 : 0,
		       m->phase, *m->detail ? "  " : "", m->detail);
		prev = m->usec;
	}
	if (tl->len >= 2 && tl->marks[tl->len - 1].usec >= tl->marks[0].usec)
		printf("the init took %.6fs, from %s to %s; the kernel ran %.6fs before it\n",
		       (double)(tl->marks[tl->len - 1].usec - tl->marks[0].usec) / 1e6,
		       tl->marks[0].phase, tl->marks[tl->len - 1].phase,
		       (double)tl->marks[0].usec / 1e6);
}

/* Render into a temporary file beside out, then rename it into place, so
 * an existing picture is never left half-written. */
static int svg_save(const struct timeline *tl, const char *out)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, r;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", out) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	r = fd < 0 ? -errno : 0;
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (r == 0 && !(f = fdopen(fd, "w")))
		r = -errno;
	if (r == 0)
		r = timeline_svg_write(tl, f);
	if (r == 0 && (fflush(f) != 0 || fsync(fd) < 0))
		r = -errno;
	if (f ? fclose(f) != 0 : (fd >= 0 && close(fd) < 0))
		r = r ? r : -errno;
	if (r == 0 && rename(tmp, out) < 0)
		r = -errno;
	if (r < 0 && fd >= 0)
		unlink(tmp);
	free(tmp);
	return r;
}

static int args_parse(int argc, char **argv, const char **file, const char **svg)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
			*svg = argv[++i];
		else if (strncmp(argv[i], "--svg=", 6) == 0)
			*svg = argv[i] + 6;
		else if (argv[i][0] != '-' && *file == NULL)
			*file = argv[i];
		else
			return -EINVAL;
	}
	return 0;
}

int timeline_cmd_main(int argc, char **argv)
{
	const char *file = NULL, *svg = NULL;
	struct timeline tl = { 0 };
	unsigned int bad = 0;
	int r;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		timeline_usage(stdout);
		return 0;
	}
	if (args_parse(argc, argv, &file, &svg) < 0) {
		timeline_usage(stderr);
		return 2;
	}
	if (!file)
		file = TIMELINE_DEFAULT;
	r = timeline_read_load(file, &tl, &bad);
	if (r == -EINVAL)
		gen_error("%s:%u: not a timeline line (SECONDS PHASE [DETAIL]); is this the file "
			  "the init wrote?", file, bad);
	else if (r == -ENOENT && strcmp(file, TIMELINE_DEFAULT) == 0)
		gen_error("no %s: this boot did not use a lifeboat image, or /run was cleared; "
			  "give a saved timeline file", file);
	else if (r < 0)
		gen_error("cannot read timeline %s: %s", file, strerror(-r));
	if (r == 0 && tl.len == 0) {
		gen_error("%s holds no phases: the init wrote nothing yet", file);
		r = -ENODATA;
	}
	if (r == 0 && svg) {
		r = svg_save(&tl, svg);
		if (r < 0)
			gen_error("cannot write picture %s: %s; check that its directory exists and "
				  "is writable", svg, strerror(-r));
	} else if (r == 0) {
		table_print(&tl);
	}
	timeline_read_free(&tl);
	return r < 0 ? 1 : 0;
}
