/* fuzz_nvmf_disclog: a discovery log page from the network (the input is
 * the page, header first): no read outside it, every entry found lies in
 * it, and every entry taken as usable makes an option string the kernel
 * parses as the fields it holds (no ',' or '=' smuggled in). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/nvmf/disclog.h"
#include "net/nvmf/fabrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Options are as many as the fields given: 6 with a host ID. */
static size_t commas(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

static void check_entry(const struct nvmf_disclog_entry *e)
{
	struct nvmf_fabrics_host h = { "nqn.2026-12.test.lifeboat:host",
				       "3a9c1f6e-0000-4000-8000-00000000b001" };
	struct nvmf_fabrics_target t;
	char options[NVMF_FABRICS_OPTIONS_MAX];

	if (strlen(e->traddr) > 256 || strlen(e->subnqn) > 256 || strlen(e->trsvcid) > 32)
		abort();
	if (!nvmf_disclog_usable(e))
		return;
	memset(&t, 0, sizeof(t));
	snprintf(t.nqn, sizeof(t.nqn), "%s", e->subnqn);
	snprintf(t.traddr, sizeof(t.traddr), "%s", e->traddr);
	snprintf(t.trsvcid, sizeof(t.trsvcid), "%s", e->trsvcid);
	if (nvmf_fabrics_options(&h, &t, options, sizeof(options), NULL) != 0)
		abort();
	if (commas(options) != 5 || !strstr(options, e->subnqn))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of its own size: ASan sees any read past it. */
	uint8_t *page = malloc(size ? size : 1);
	struct nvmf_disclog_entry e;
	uint64_t genctr, numrec, i;

	if (!page)
		abort();
	memcpy(page, data, size);
	if (nvmf_disclog_header(page, size, &genctr, &numrec) == 0) {
		for (i = 0; i < numrec && nvmf_disclog_entry(page, size, i, &e) == 0; i++)
			check_entry(&e);
		if (i < numrec && (i + 2) * NVMF_DISCLOG_RECORD <= size)
			abort();
	}
	free(page);
	return 0;
}
