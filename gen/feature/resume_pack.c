/* resume_pack: a host-only image records the host's resume device, so it
 * resumes from it without resume= on the command line (docs/resume.md). */
#include "gen/feature/feature.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/layout.h"
#include "gen/gen_report.h"

static bool resume_pack_wanted(const struct build_ctx *c)
{
	return c->host != NULL;
}

/* No resume device is not an error: the image then resumes only when told. */
static int resume_pack_add_files(struct build_ctx *c)
{
	const struct host_facts *h = c->host;
	char line[400];

	if (h->resume_status == -ENOENT) {
		gen_info("no resume device on this host (no /sys/power/resume, no swap "
			 "partition in use): the image resumes only with resume= on the command line");
		return 0;
	}
	if (h->resume_status < 0) {
		gen_warn("finding the host's resume device failed (%s); the image resumes only "
			 "with resume= on the command line", strerror(-h->resume_status));
		return 0;
	}
	if (h->resume.offset)
		snprintf(line, sizeof(line), "resume=%s resume_offset=%llu\n", h->resume.spec,
			 h->resume.offset);
	else
		snprintf(line, sizeof(line), "resume=%s\n", h->resume.spec);
	gen_info("resume device (from %s): %.*s; noresume on the command line turns it off",
		 h->resume.from, (int)strcspn(line, "\n"), line);
	return image_add_data(c->img, LAYOUT_CMDLINE_RESUME, line, strlen(line), 0644);
}

const struct feature resume_pack_feature = {
	.name = "resume",
	.wanted = resume_pack_wanted,
	.add_files = resume_pack_add_files,
};
