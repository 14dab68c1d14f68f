/* Fuzz target: the block-stack parameters (rd.luks.key= and rd.luks.options=
 * among them), the LUKS options parser, the dm names of root= paths, and
 * the names a root's crypttab gives containers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blockstack/keyspec.h"
#include "blockstack/luksname.h"
#include "blockstack/stack_params.h"
#include "init/bootargs.h"
#include "common/dmname.h"
#include "common/luksopts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct boot_args args;
	struct stack_params p;
	struct luks_key key;
	struct luks_opts opts;
	const char *argv[LUKS_OPTS_ARGV_MAX];
	char name[STACK_NAME_MAX], text[300];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	bootargs_init(&args);
	bootargs_parse(line, NULL, &args);
	p = args.stacks;
	stack_params_luks_wanted(&p, line, name, sizeof(name));
	stack_params_luks_opts(&p, line);
	stack_params_md_wanted(&p, line);
	for (size_t i = 0; i < p.n_luks; i++) {
		stack_params_luks_wanted(&p, p.luks_names[i].uuid, name, sizeof(name));
		stack_params_luks_timeout(&p, p.luks_names[i].uuid);
	}
	for (size_t i = 0; i < p.n_keys; i++) {
		keyspec_applies(&p.luks_keys[i], "vda", line);
		if (p.luks_keys[i].has_keydev)
			keyspec_dev_text(&p.luks_keys[i].keydev, text, sizeof(text));
	}
	if (keyspec_parse(line, &key) == 0)
		keyspec_applies(&key, line, line);
	luks_opts_init(&opts);
	luks_opts_parse(line, &opts);
	luks_opts_argv(&opts, argv, LUKS_OPTS_ARGV_MAX);
	luks_opts_describe(&opts, true, text, sizeof(text));
	dmname_from_path(line, name, sizeof(name));
	dmname_from_path(line, name, 3);
	dmname_lvm_vg(line, name, sizeof(name));
	/* A root's crypttab, and a device-mapper uuid. */
	luksname_from_crypttab(line, "1b2c3d4e00d54a5b8c6d7e8f9a0b1c2d", name, sizeof(name));
	luksname_dm_uuid_hex(line, text);
	bootargs_free(&args);
	free(line);
	return 0;
}
