/* fuzz_nvmf_args: the rd.nvmf.* words of a command line (the input): no
 * crash, every rd.nvmf.discover= value either refused or read into a
 * TCP discovery controller with an address and a port, and an option
 * string made from it (with a fixed host) either refused or holding
 * exactly the options given: a word cannot smuggle one in. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/cmdline.h"
#include "net/nvmf/fabrics.h"
#include "net/nvmf_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count(const char *s, char c)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void check_discover(const char *value)
{
	static const struct nvmf_fabrics_host h = { "nqn.2026-12.test.lifeboat:host", "" };
	struct nvmf_fabrics_target t;
	char why[512], options[NVMF_FABRICS_OPTIONS_MAX];

	if (nvmf_args_discover_parse(value, &t, why, sizeof(why)) < 0)
		return;
	if (!t.traddr[0] || !t.trsvcid[0] || strcmp(t.nqn, NVMF_FABRICS_DISCOVERY_NQN) != 0)
		abort();
	if (nvmf_fabrics_options(&h, &t, options, sizeof(options), NULL) < 0)
		return;
	/* nqn, transport, traddr, trsvcid, hostnqn, and host_traddr if given. */
	if (count(options, ',') != 4u + (t.host_traddr[0] != '\0') ||
	    count(options, '=') != 5u + (t.host_traddr[0] != '\0'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nvmf_args a;
	struct cmdline_owner o;
	struct nvmf_fabrics_host host;
	char line[CMDLINE_MAX], why[512];
	int instance;

	if (size >= sizeof(line))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	memset(&a, 0, sizeof(a));
	o = nvmf_args_cmdline(&a);
	cmdline_parse(line, NULL, &o, 1);
	if (a.n_discover > NVMF_ARGS_DISCOVER_MAX)
		abort();
	for (size_t i = 0; i < a.n_discover; i++)
		check_discover(a.discover[i]);
	/* No files: the host is the command line's or none. */
	if (nvmf_args_host(&a, "/nonexistent", &host, why, sizeof(why)) == 0 &&
	    (strncmp(host.nqn, "nqn.", 4) != 0 || strchr(host.nqn, ',') || strchr(host.id, ',')))
		abort();
	/* The kernel's answer parser on the same bytes. */
	nvmf_fabrics_parse_answer(line, &instance);
	return 0;
}
