/* nvmf_fw: the NBFT's network words and table choice (net/nvmf_fw.h). */
#include "net/nvmf_fw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bootlib/log.h"

bool nvmf_fw_present(const struct nvmf_args *a, const char *dir)
{
	char paths[1][256];

	if (a->off || a->nonbft)
		return false;
	return nvmf_nbft_find(dir, paths, 1) > 0;
}

int nvmf_fw_pick(const char *dir, struct nvmf_nbft *t, char *path, char *why, size_t n)
{
	char paths[8][256], text[256];
	size_t found = nvmf_nbft_find(dir, paths, 8);

	snprintf(why, n, "the firmware left no NBFT table in %s", dir);
	for (size_t i = 0; i < found; i++) {
		int r = nvmf_nbft_load(paths[i], t, text, sizeof(text));

		if (r == 0 && t->n_ssns > 0) {
			snprintf(path, 256, "%s", paths[i]);
			return 0;
		}
		if (r == 0)
			snprintf(text, sizeof(text), "it names no subsystem (%u descriptors malformed)",
				 t->dropped);
		log_warn("NVMe/TCP: the firmware's table %s is not used: %s", paths[i], text);
		snprintf(why, n, "the firmware's table %s: %s", paths[i], text);
	}
	return -ENOENT;
}

/* A prefix as IPv4's dotted mask (the ip= word's netmask field). */
static void mask_text(unsigned int prefix, char *out, size_t size)
{
	struct in_addr m = { htonl(prefix ? 0xffffffffu << (32 - prefix) : 0) };

	inet_ntop(AF_INET, &m, out, size);
}

static void ip_word(const struct nvmf_nbft_hfi *h, const char *iface, char *out, size_t size)
{
	char mask[INET_ADDRSTRLEN];

	if (h->dhcp)
		snprintf(out, size, "%s:%s", iface, h->ipv6 ? "dhcp6" : "dhcp");
	else if (h->ipv6)
		snprintf(out, size, "[%s]::%s%s%s:%u::%s:none", h->addr, h->gateway[0] ? "[" : "",
			 h->gateway, h->gateway[0] ? "]" : "", h->prefix, iface);
	else {
		mask_text(h->prefix, mask, sizeof(mask));
		snprintf(out, size, "%s::%s:%s::%s:none", h->addr, h->gateway, mask, iface);
	}
}

int nvmf_fw_net(const struct nvmf_nbft *t, const struct net_args *cmdline, struct net_args *out,
		char *iface, size_t iface_size, char *why, size_t n)
{
	const struct nvmf_nbft_hfi *h = nvmf_nbft_hfi_find(t, t->ssns[0].hfi);
	char word[CMDLINE_VALUE_MAX], nic[16];
	int r;

	net_args_init(out);
	out->timeout_dhcp = cmdline->timeout_dhcp;
	out->timeout_carrier = cmdline->timeout_carrier;
	out->timeout_iflink = cmdline->timeout_iflink;
	out->dhcp_retry = cmdline->dhcp_retry;
	if (!h || h->trtype != NVMF_NBFT_TRTYPE_TCP) {
		snprintf(why, n, "the subsystem %s names HFI %u, which the table %s", t->ssns[0].nqn,
			 t->ssns[0].hfi, h ? "gives another transport than TCP" : "does not describe");
		return -EINVAL;
	}
	snprintf(nic, sizeof(nic), "nbft%u", h->index);
	snprintf(word, sizeof(word), "ifname=%s:%02x:%02x:%02x:%02x:%02x:%02x", nic, h->mac[0],
		 h->mac[1], h->mac[2], h->mac[3], h->mac[4], h->mac[5]);
	r = strv_push(&out->netdevs, word);
	snprintf(iface, iface_size, "%s", nic);
	if (r == 0 && h->vlan) {
		snprintf(iface, iface_size, "%s.%u", nic, h->vlan);
		snprintf(word, sizeof(word), "vlan=%s:%s", iface, nic);
		r = strv_push(&out->netdevs, word);
	}
	if (r < 0) {
		snprintf(why, n, "out of memory");
		return r;
	}
	ip_word(h, iface, out->ip, sizeof(out->ip));
	return 0;
}
