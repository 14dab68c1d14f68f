/* fuzz_nbft: the firmware's NBFT table (the input is the table, header
 * first): no read outside it, every string taken is bounded and fit for
 * the kernel's option string, and the network words made of an HFI are
 * ones the ip= parser takes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/config/ipparam.h"
#include "net/net_args.h"
#include "net/nvmf/fabrics.h"
#include "net/nvmf/nbft.h"
#include "net/nvmf_fw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ssns(const struct nvmf_nbft_ssns *s)
{
	struct nvmf_fabrics_host h = { "nqn.2026-12.test.lifeboat:host", "" };
	struct nvmf_fabrics_target t;
	char options[NVMF_FABRICS_OPTIONS_MAX];

	memset(&t, 0, sizeof(t));
	snprintf(t.nqn, sizeof(t.nqn), "%s", s->nqn);
	snprintf(t.traddr, sizeof(t.traddr), "%s", s->traddr);
	snprintf(t.trsvcid, sizeof(t.trsvcid), "%s", s->trsvcid);
	if (!s->nqn[0] || !s->traddr[0] || nvmf_fabrics_options(&h, &t, options, sizeof(options), NULL) != 0)
		abort();
}

static void check_net(const struct nvmf_nbft *t)
{
	struct net_args cmd, out;
	struct ip_param ip;
	char iface[32], why[256];

	net_args_init(&cmd);
	if (nvmf_fw_net(t, &cmd, &out, iface, sizeof(iface), why, sizeof(why)) == 0 &&
	    ip_param_parse(out.ip, &ip) != 0)
		abort();
	net_args_free(&out);
	net_args_free(&cmd);
}

/* The checksum byte set so that the length field's bytes sum to 0: a
 * mutation then reaches the descriptors instead of the checksum's test. */
static void checksum_fix(uint8_t *table, size_t size)
{
	uint32_t len;
	uint8_t sum = 0;

	if (size < 10)
		return;
	len = (uint32_t)table[4] | (uint32_t)table[5] << 8 | (uint32_t)table[6] << 16 |
	      (uint32_t)table[7] << 24;
	if (len > size)
		return;
	table[9] = 0;
	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + table[i]);
	table[9] = (uint8_t)(0x100 - sum);
}

static void parse_check(uint8_t *table, size_t size)
{
	struct nvmf_nbft t;
	char why[256];

	if (nvmf_nbft_parse(table, size, &t, why, sizeof(why)) == 0) {
		if (t.n_hfi > NVMF_NBFT_HFI_MAX || t.n_ssns > NVMF_NBFT_SSNS_MAX ||
		    strlen(t.host_nqn) >= sizeof(t.host_nqn) || strlen(t.host_id) >= sizeof(t.host_id))
			abort();
		for (size_t i = 0; i < t.n_ssns; i++)
			check_ssns(&t.ssns[i]);
		if (t.n_ssns)
			check_net(&t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of its own size: ASan sees any read past it. */
	uint8_t *table = malloc(size ? size : 1);

	if (!table)
		abort();
	memcpy(table, data, size);
	parse_check(table, size);
	checksum_fix(table, size);
	parse_check(table, size);
	free(table);
	return 0;
}
