/* Fuzz target: the host's block-stack files read by the generator and the
 * image's crypttab read by the init: crypttab lines, lvm.conf's device
 * filters, the ARRAY lines of mdadm.conf. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/params.h"
#include "crypttab.h"
#include "gen/lvmfilter.h"
#include "gen/stackconf.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"

static void crypttab_lines(const char *text)
{
	struct stack_params p;
	char name[STACK_NAME_MAX], line[1024], uuid[64];

	stack_params_init(&p);
	while (*text) {
		size_t len = strcspn(text, "\n");
		struct crypttab_entry e;

		memcpy(line, text, len < sizeof(line) ? len : sizeof(line) - 1);
		line[len < sizeof(line) ? len : sizeof(line) - 1] = '\0';
		text += len + (text[len] == '\n');
		if (crypttab_parse_line(line, &e) == 1) {
			stack_params_add_crypttab(&p, &e);
			crypttab_source_uuid(e.source, uuid, sizeof(uuid));
		}
	}
	stack_params_luks_wanted(&p, U1, name, sizeof(name));
}

static void host_files(const char *text)
{
	struct host_scan h;
	struct strv added = STRV_INIT;
	const char *uuids[] = { U1 };
	char *out = NULL, *left = NULL, filters[512];

	memset(&h, 0, sizeof(h));
	h.n_luks = h.n_md = 1;
	strcpy(h.luks[0].uuid, U1);
	strcpy(h.luks[0].dev, "sda3");
	strcpy(h.md[0].dev, "md0");
	strcpy(h.md[0].member, "sda1");
	if (stackconf_crypttab(&h, text, NULL, &added, &out, &left) == 0) {
		free(out);
		free(left);
	}
	if (stackconf_mdadm(&h, text, uuids, &out) == 0)
		free(out);
	lvmfilter_extract(text, filters, sizeof(filters));
	lvmfilter_extract(text, filters, 16);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	crypttab_lines(text);
	host_files(text);
	free(text);
	return 0;
}
