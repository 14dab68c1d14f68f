/* Fuzz target: the host's block-stack files read by the generator and the
 * image's crypttab read by the init: crypttab lines and their options,
 * lvm.conf's device filters, the ARRAY lines of mdadm.conf. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/stack_params.h"
#include "common/crypttab.h"
#include "common/luksopts.h"
#include "gen/host/lvmfilter.h"
#include "gen/host/stackconf.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"

/* Options as crypttab's fourth field, into cryptsetup's flags and the log. */
static void options(const char *text)
{
	struct luks_opts o;
	const char *argv[LUKS_OPTS_ARGV_MAX];
	char words[64];

	luks_opts_init(&o);
	luks_opts_parse(text, &o);
	luks_opts_argv(&o, argv, LUKS_OPTS_ARGV_MAX);
	luks_opts_describe(&o, true, words, sizeof(words));
	luks_opts_describe(&o, false, words, 1);
}

static void note_nothing(void *ctx, const char *name, const struct luks_opts *o)
{
	(void)ctx;
	(void)name;
	(void)o;
}

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
			options(e.options);
		}
		options(line);
	}
	stack_params_luks_wanted(&p, U1, name, sizeof(name));
	stack_params_luks_opts(&p, U1);
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
		stackconf_crypttab_check(out, note_nothing, NULL);
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
	stackconf_crypttab_check(text, note_nothing, NULL);
	host_files(text);
	free(text);
	return 0;
}
