/* build_all: an image for every installed kernel, built in parallel. */
#include "gen/cmd/build_all.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen/cmd/build.h"
#include "gen/gen_report.h"
#include "gen/kmod/kernel.h"

int build_all_output(const char *pattern, const char *kver, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = pattern; *p; p++) {
		const char *piece = p;
		size_t len = 1;

		if (p[0] == '%' && p[1] == 'k') {
			piece = kver;
			len = strlen(kver);
			p++;
		}
		if (n + len >= size)
			return -ENAMETOOLONG;
		memcpy(out + n, piece, len);
		n += len;
	}
	out[n] = '\0';
	return 0;
}

/* A child: one kernel's build, its exit status the result. */
static void __attribute__((noreturn)) build_child(const struct build_opts *o, const struct host_facts *host,
						  const char *kver)
{
	struct build_opts one = *o;
	char output[PATH_MAX];

	if (build_all_output(o->output, kver, output, sizeof(output)) < 0) {
		gen_error("-o %s: too long with %s for %%k", o->output, kver);
		_exit(1);
	}
	one.kver = (char *)kver;
	one.output = output;
	_exit(build_kernel(&one, host) < 0 ? 1 : 0);
}

struct running {
	pid_t pid;
	const char *kver;
};

/* Wait for one of the n running builds; it leaves the table. Returns
 * whether it failed (reporting which kernel). */
static int reap_one(struct running *run, size_t *n)
{
	int status;
	pid_t pid = waitpid(-1, &status, 0);

	for (size_t i = 0; i < *n; i++) {
		if (run[i].pid != pid)
			continue;
		bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
		if (failed)
			gen_error("the image for kernel %s was not built (see the messages above)", run[i].kver);
		run[i] = run[--*n];
		return failed;
	}
	return 0;
}

static unsigned jobs_for(const struct build_opts *o, size_t kernels)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = o->jobs ? o->jobs : cpus > 0 ? (unsigned)cpus : 1;

	return jobs < kernels ? jobs : (unsigned)kernels;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int build_all(const struct build_opts *o, const struct host_facts *host)
{
	struct strv kernels = STRV_INIT;
	struct running *run;
	struct timespec t0;
	size_t n = 0, failed = 0, next = 0;
	unsigned jobs;
	int r = kernel_list(o->kmoddir, &kernels);

	if (r == 0 && kernels.len == 0) {
		gen_error("--kver all: no kernel modules tree (modules.dep) in %s/lib/modules or "
			  "%s/usr/lib/modules", o->kmoddir ? o->kmoddir : "", o->kmoddir ? o->kmoddir : "");
		r = -ENOENT;
	}
	jobs = jobs_for(o, kernels.len);
	run = r == 0 ? calloc(jobs, sizeof(*run)) : NULL;
	if (r == 0 && !run)
		r = -ENOMEM;
	if (r < 0) {
		strv_free(&kernels);
		return r;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Messages written before the fork must not be written twice. */
	fflush(NULL);
	while (next < kernels.len || n > 0) {
		if (next < kernels.len && n < jobs) {
			pid_t pid = fork();

			if (pid == 0)
				build_child(o, host, kernels.items[next]);
			if (pid < 0) {
				gen_error("cannot start the build for kernel %s: %s", kernels.items[next],
					  strerror(errno));
				failed++;
			} else {
				run[n++] = (struct running){ pid, kernels.items[next] };
			}
			next++;
			continue;
		}
		failed += (size_t)reap_one(run, &n);
	}
	gen_info("built images for %zu of %zu kernel(s), %u at a time, in %.2f s",
		 kernels.len - failed, kernels.len, jobs, seconds_since(&t0));
	free(run);
	strv_free(&kernels);
	return failed ? -EIO : 0;
}
