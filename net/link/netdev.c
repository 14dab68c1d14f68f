/* netdev: RTM_NEWLINK requests that make and join interfaces (rtnetlink(7)). */
#include "net/link/netdev.h"

#include <errno.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdint.h>
#include <string.h>

#include "net/link/link.h"

struct link_req {
	struct nlmsghdr hdr;
	struct ifinfomsg ifi;
	char attrs[512];  /* room for the rtattrs req_put appends */ // cppcheck-suppress unusedStructMember
};

static void req_init(struct link_req *m, unsigned short flags, int index)
{
	memset(m, 0, sizeof(*m));
	m->hdr.nlmsg_len = (unsigned int)NLMSG_LENGTH(sizeof(struct ifinfomsg));
	m->hdr.nlmsg_type = RTM_NEWLINK;
	m->hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->hdr.nlmsg_seq = 1;
	m->ifi.ifi_family = AF_UNSPEC;
	m->ifi.ifi_index = index;
}

/* Append one attribute; the buffer is sized for the largest request made
 * here (a bond with every option), so running out is a programming error
 * that the kernel then refuses as a cut-off message. */
static struct rtattr *req_put(struct link_req *m, unsigned short type, const void *data,
			      size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)m + NLMSG_ALIGN(m->hdr.nlmsg_len));

	if (NLMSG_ALIGN(m->hdr.nlmsg_len) + RTA_SPACE(len) > sizeof(*m))
		return NULL;
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	m->hdr.nlmsg_len = (unsigned int)(NLMSG_ALIGN(m->hdr.nlmsg_len) + RTA_ALIGN(a->rta_len));
	return a;
}

static void req_put_u32(struct link_req *m, unsigned short type, uint32_t v)
{
	req_put(m, type, &v, sizeof(v));
}

/* A nested attribute's length covers what was appended since it began. */
static void nest_end(struct link_req *m, struct rtattr *nest)
{
	if (nest)
		nest->rta_len = (unsigned short)((char *)m + m->hdr.nlmsg_len - (char *)nest);
}

static void put_bond_data(struct link_req *m, const struct netdev_spec *s)
{
	for (int i = 0; i < s->n_opts; i++) {
		uint8_t v8 = (uint8_t)s->opts[i].value;

		if (s->opts[i].size == 1)
			req_put(m, s->opts[i].attr, &v8, 1);
		else
			req_put_u32(m, s->opts[i].attr, s->opts[i].value);
	}
	if (s->primary[0])
		req_put_u32(m, IFLA_BOND_PRIMARY, if_nametoindex(s->primary));
}

/* IFLA_LINKINFO: the kind, and its data (the VLAN id; the bond's options;
 * the bridge forwarding at once, as dracut sets it: no STP runs in a boot). */
static void put_linkinfo(struct link_req *m, const struct netdev_spec *s)
{
	static const char *const kinds[] = { [NETDEV_VLAN] = "vlan", [NETDEV_BOND] = "bond",
					     [NETDEV_BRIDGE] = "bridge" };
	struct rtattr *info = req_put(m, IFLA_LINKINFO, NULL, 0), *data;
	uint16_t id = (uint16_t)s->vlan_id;

	req_put(m, IFLA_INFO_KIND, kinds[s->kind], strlen(kinds[s->kind]));
	data = req_put(m, IFLA_INFO_DATA, NULL, 0);
	if (s->kind == NETDEV_VLAN)
		req_put(m, IFLA_VLAN_ID, &id, sizeof(id));
	else if (s->kind == NETDEV_BOND)
		put_bond_data(m, s);
	else {
		req_put_u32(m, IFLA_BR_FORWARD_DELAY, 0);
		req_put_u32(m, IFLA_BR_STP_STATE, 0);
	}
	nest_end(m, data);
	nest_end(m, info);
}

static int create_request(const struct netdev_spec *s, unsigned short flags, int index)
{
	struct link_req m;

	req_init(&m, flags, index);
	req_put(&m, IFLA_IFNAME, s->name, strlen(s->name) + 1);
	if (s->mtu)
		req_put_u32(&m, IFLA_MTU, s->mtu);
	if (s->kind == NETDEV_VLAN)
		req_put_u32(&m, IFLA_LINK, if_nametoindex(s->ports[0]));
	put_linkinfo(&m, s);
	return link_nl_send(&m.hdr);
}

int netdev_create(const struct netdev_spec *s)
{
	int r;

	if (s->kind == NETDEV_IFNAME)
		return -EINVAL;
	r = create_request(s, NLM_F_CREATE | NLM_F_EXCL, 0);
	if (r == -EEXIST && s->kind != NETDEV_VLAN) {
		int index = (int)if_nametoindex(s->name);

		r = index > 0 ? create_request(s, 0, index) : -EEXIST;
	}
	return r;
}

static int set_flags(int index, unsigned int up, int master, const char *name)
{
	struct link_req m;

	req_init(&m, 0, index);
	m.ifi.ifi_flags = up;
	m.ifi.ifi_change = IFF_UP;
	if (master)
		req_put_u32(&m, IFLA_MASTER, (uint32_t)master);
	if (name)
		req_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
	return link_nl_send(&m.hdr);
}

int netdev_enslave(int index, int master)
{
	int r = set_flags(index, 0, 0, NULL);

	if (r == 0)
		r = set_flags(index, 0, master, NULL);
	return r < 0 ? r : set_flags(index, IFF_UP, 0, NULL);
}

int netdev_rename(int index, const char *name)
{
	int r = set_flags(index, 0, 0, NULL);

	return r < 0 ? r : set_flags(index, 0, 0, name);
}
