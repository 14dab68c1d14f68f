/* netdev_spec: parse vlan=, bond=, bridge=, ifname= and BOOTIF= (dracut.cmdline(7)). */
#include "net/link/netdev_spec.h"

#include <ctype.h>
#include <errno.h>
#include <linux/if_link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORD_MAX 256
#define FIELDS_MAX 4

/* A bond option: its key, the kernel attribute, its size, and the names
 * its numbers have (in the kernel's order), or NULL for a plain number. */
struct bond_key {
	const char *key;
	unsigned short attr;
	unsigned char size;
	const char *const *names;
};

static const char *const bond_modes[] = { "balance-rr", "active-backup", "balance-xor",
	"broadcast", "802.3ad", "balance-tlb", "balance-alb", NULL };
static const char *const bond_lacp_rates[] = { "slow", "fast", NULL };
static const char *const bond_hash_policies[] = { "layer2", "layer3+4", "layer2+3",
	"encap2+3", "encap3+4", "vlan+srcmac", NULL };
static const char *const bond_fail_over_macs[] = { "none", "active", "follow", NULL };
static const char *const bond_ad_selects[] = { "stable", "bandwidth", "count", NULL };

static const struct bond_key bond_keys[] = {
	{ "mode",             IFLA_BOND_MODE,             1, bond_modes },
	{ "miimon",           IFLA_BOND_MIIMON,           4, NULL },
	{ "updelay",          IFLA_BOND_UPDELAY,          4, NULL },
	{ "downdelay",        IFLA_BOND_DOWNDELAY,        4, NULL },
	{ "arp_interval",     IFLA_BOND_ARP_INTERVAL,     4, NULL },
	{ "min_links",        IFLA_BOND_MIN_LINKS,        4, NULL },
	{ "lacp_rate",        IFLA_BOND_AD_LACP_RATE,     1, bond_lacp_rates },
	{ "xmit_hash_policy", IFLA_BOND_XMIT_HASH_POLICY, 1, bond_hash_policies },
	{ "fail_over_mac",    IFLA_BOND_FAIL_OVER_MAC,    1, bond_fail_over_macs },
	{ "ad_select",        IFLA_BOND_AD_SELECT,        1, bond_ad_selects },
	{ "use_carrier",      IFLA_BOND_USE_CARRIER,      1, NULL },
};

#define BOND_KEYS_TEXT "mode, miimon, updelay, downdelay, arp_interval, min_links, " \
	"lacp_rate, xmit_hash_policy, fail_over_mac, ad_select, use_carrier, primary"

/* The expected form of each word, for the messages. */
static const char *const forms[] = {
	[NETDEV_VLAN] = ("vlan=NAME:PARENT, the VLAN id (1-4094) at the end of NAME "
			 "(vlan5, vlan0005, eth0.5)"),
	[NETDEV_BOND] = "bond=NAME[:SLAVE,SLAVE...[:OPTION=VALUE,...[:MTU]]]",
	[NETDEV_BRIDGE] = "bridge=NAME[:PORT,PORT...]",
	[NETDEV_IFNAME] = "ifname=NAME:MAC (six hex bytes, aa:bb:cc:dd:ee:ff)",
};

/* A name the kernel takes: 1 to IF_NAMESIZE-1 characters, no '/', ':',
 * space, and not "." or "..". */
int netdev_spec_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= IF_NAMESIZE || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || *s == ',' || *s == '=' || isspace((unsigned char)*s) ||
		    !isprint((unsigned char)*s))
			return 0;
	return 1;
}

/* Split at sep in place, up to max fields; the last keeps the rest. */
static int split(char *s, char sep, char **fields, int max)
{
	int n = 0;

	fields[n++] = s;
	for (; *s && n < max; s++)
		if (*s == sep) {
			*s = '\0';
			fields[n++] = s + 1;
		}
	return n;
}

static int parse_number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end || *out > max ? -EINVAL : 0;
}

/* "eth0,eth1" into out->ports; an empty list is an error. */
static int parse_ports(char *list, struct netdev_spec *out)
{
	char *names[NETDEV_PORTS_MAX + 1];
	int n = split(list, ',', names, NETDEV_PORTS_MAX + 1);

	if (n > NETDEV_PORTS_MAX)
		return -E2BIG;
	for (int i = 0; i < n; i++) {
		if (!netdev_spec_name_valid(names[i]))
			return -EINVAL;
		strcpy(out->ports[i], names[i]);
	}
	out->n_ports = n;
	return 0;
}

static int set_name(const char *name, struct netdev_spec *out)
{
	if (!netdev_spec_name_valid(name))
		return -EINVAL;
	strcpy(out->name, name);
	return 0;
}

/* The id is the digits after the last '.', or after "vlan". */
static int vlan_id_from_name(const char *name, unsigned int *id)
{
	const char *dot = strrchr(name, '.');
	const char *digits = dot ? dot + 1 : strncmp(name, "vlan", 4) == 0 ? name + 4 : NULL;
	unsigned long v;

	if (!digits || parse_number(digits, 4094, &v) < 0 || v == 0)
		return -EINVAL;
	*id = (unsigned int)v;
	return 0;
}

static int parse_vlan(char *value, struct netdev_spec *out)
{
	char *f[2];

	if (split(value, ':', f, 2) != 2 || set_name(f[0], out) < 0 ||
	    vlan_id_from_name(f[0], &out->vlan_id) < 0)
		return -EINVAL;
	return parse_ports(f[1], out) < 0 || out->n_ports != 1 ? -EINVAL : 0;
}

static int bond_value(const struct bond_key *k, const char *value, uint32_t *out)
{
	unsigned long v;

	for (size_t i = 0; k->names && k->names[i]; i++)
		if (strcmp(value, k->names[i]) == 0) {
			*out = (uint32_t)i;
			return 0;
		}
	if (parse_number(value, k->size == 1 ? 0xff : 0xffffffffUL, &v) < 0)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_bond_option(char *opt, struct netdev_spec *out)
{
	char *kv[2];

	if (split(opt, '=', kv, 2) != 2)
		return -EINVAL;
	if (strcmp(kv[0], "primary") == 0) {
		if (!netdev_spec_name_valid(kv[1]))
			return -EINVAL;
		strcpy(out->primary, kv[1]);
		return 0;
	}
	for (size_t i = 0; i < sizeof(bond_keys) / sizeof(bond_keys[0]); i++) {
		struct netdev_bond_opt *o = &out->opts[out->n_opts];

		if (strcmp(kv[0], bond_keys[i].key) != 0)
			continue;
		if (out->n_opts == NETDEV_BOND_OPTS_MAX)
			return -E2BIG;
		o->attr = bond_keys[i].attr;
		o->size = bond_keys[i].size;
		out->n_opts++;
		return bond_value(&bond_keys[i], kv[1], &o->value);
	}
	return -ENOENT;
}

static int parse_bond_options(char *list, struct netdev_spec *out, char *why, size_t n)
{
	char *opts[NETDEV_BOND_OPTS_MAX + 2];
	int count = split(list, ',', opts, NETDEV_BOND_OPTS_MAX + 2);

	for (int i = 0; i < count; i++) {
		char copy[48];
		int r;

		snprintf(copy, sizeof(copy), "%s", opts[i]);
		r = parse_bond_option(opts[i], out);
		if (r == -ENOENT)
			snprintf(why, n, "bond option '%.40s' is not one lifeboat knows (%s)", copy,
				 BOND_KEYS_TEXT);
		else if (r < 0)
			snprintf(why, n, "bond option '%.40s' is malformed: expected KEY=VALUE, "
				 "at most %d of them, the value a number or the kernel's name "
				 "for it (mode=active-backup)", copy, NETDEV_BOND_OPTS_MAX);
		if (r < 0)
			return -EINVAL;
	}
	return 0;
}

/* bond=NAME[:SLAVES[:OPTIONS[:MTU]]]; "bond" alone: bond0 over eth0,eth1. */
static int parse_bond(char *value, struct netdev_spec *out, char *why, size_t n)
{
	char defaults[] = "bond0:eth0,eth1:mode=balance-rr";
	char *f[FIELDS_MAX];
	int count = split(value ? value : defaults, ':', f, FIELDS_MAX);
	unsigned long mtu = 0;

	if (set_name(f[0], out) < 0 || (count > 1 && parse_ports(f[1], out) < 0) ||
	    (count > 3 && parse_number(f[3], 65535, &mtu) < 0) || (mtu && mtu < 68))
		return -EINVAL;
	if (count == 1) {
		strcpy(out->ports[0], "eth0");
		strcpy(out->ports[1], "eth1");
		out->n_ports = 2;
	}
	out->mtu = (unsigned int)mtu;
	return count > 2 && f[2][0] ? parse_bond_options(f[2], out, why, n) : 0;
}

/* bridge=NAME[:PORTS]; "bridge" alone: br0 over eth0. */
static int parse_bridge(char *value, struct netdev_spec *out)
{
	char defaults[] = "br0:eth0";
	char *f[2];
	int count = split(value ? value : defaults, ':', f, 2);

	if (set_name(f[0], out) < 0)
		return -EINVAL;
	if (count == 1) {
		strcpy(out->ports[0], "eth0");
		out->n_ports = 1;
		return 0;
	}
	return parse_ports(f[1], out);
}

/* aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff, nothing after. */
static int parse_mac(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		unsigned int byte;
		int used = 0;

		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    sscanf(s, "%2x%n", &byte, &used) != 1 || used != 2)
			return -EINVAL;
		mac[i] = (uint8_t)byte;
		s += 2;
		if (i < 5 && *s != ':' && *s != '-')
			return -EINVAL;
		if (i < 5)
			s++;
	}
	return *s ? -EINVAL : 0;
}

static int parse_ifname(char *value, struct netdev_spec *out)
{
	char *f[2];

	if (split(value, ':', f, 2) != 2 || set_name(f[0], out) < 0)
		return -EINVAL;
	return parse_mac(f[1], out->mac);
}

int netdev_spec_bootif_parse(const char *value, uint8_t mac[6])
{
	/* "01-" names Ethernet as ARP's hardware type; 6 bytes make 17 characters. */
	if (strlen(value) == 20 && strncmp(value, "01-", 3) == 0)
		value += 3;
	return parse_mac(value, mac);
}

static int kind_of(const char *word, size_t len, enum netdev_kind *kind)
{
	static const char *const names[] = { [NETDEV_VLAN] = "vlan", [NETDEV_BOND] = "bond",
		[NETDEV_BRIDGE] = "bridge", [NETDEV_IFNAME] = "ifname" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && strncmp(word, names[i], len) == 0) {
			*kind = (enum netdev_kind)i;
			return 0;
		}
	return -ENOENT;
}

static int parse_kind(char *value, struct netdev_spec *out, char *why, size_t n)
{
	switch (out->kind) {
	case NETDEV_VLAN:
		return value ? parse_vlan(value, out) : -EINVAL;
	case NETDEV_BOND:
		return parse_bond(value, out, why, n);
	case NETDEV_BRIDGE:
		return parse_bridge(value, out);
	case NETDEV_IFNAME:
		return value ? parse_ifname(value, out) : -EINVAL;
	}
	return -EINVAL;
}

int netdev_spec_parse(const char *word, struct netdev_spec *out, char *why, size_t why_size)
{
	char copy[WORD_MAX], detail[320] = "";
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	int r;

	memset(out, 0, sizeof(*out));
	if (kind_of(word, len, &out->kind) < 0 || strlen(word) >= sizeof(copy)) {
		snprintf(why, why_size, "'%.64s' is not a vlan=, bond=, bridge= or ifname= word "
			 "lifeboat can read", word);
		return -EINVAL;
	}
	strcpy(copy, word);
	r = parse_kind(eq ? copy + len + 1 : NULL, out, detail, sizeof(detail));
	if (r < 0)
		snprintf(why, why_size, "%s: %s%sexpected %s", word, detail, detail[0] ? "; " : "",
			 forms[out->kind]);
	return r < 0 ? -EINVAL : 0;
}
