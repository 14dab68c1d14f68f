/* nvmf_args: rd.nvmf.*, nvmf.*, rd.nonvmf and the host's identity. */
#include "net/nvmf_args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fileread.h"

/* libnvme's NQN made from a UUID (nvme gen-hostnqn's form). */
#define UUID_NQN_PREFIX "nqn.2014-08.org.nvmexpress:uuid:"

/* Repeated words accumulate, each distinct value once. */
static int discover_add(void *args, const struct cmdline_word *w, const char *value)
{
	struct nvmf_args *a = args;

	(void)w;
	if (!value || !value[0])
		return -EINVAL;
	/* dracut's word for the firmware's table (used when present anyway). */
	if (strcmp(value, "fw") == 0) {
		a->fw = true;
		return 0;
	}
	if (strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < a->n_discover; i++)
		if (strcmp(a->discover[i], value) == 0)
			return 0;
	if (a->n_discover == NVMF_ARGS_DISCOVER_MAX) {
		a->discover_dropped = true;
		return -E2BIG;
	}
	snprintf(a->discover[a->n_discover++], CMDLINE_VALUE_MAX, "%s", value);
	return 0;
}

#define F(f) offsetof(struct nvmf_args, f)
static const struct cmdline_word words[] = {
	{ "rd.nvmf.hostnqn",  cmdline_set_string, F(hostnqn) },
	{ "nvmf.hostnqn",     cmdline_set_string, F(hostnqn) },
	{ "rd.nvmf.hostid",   cmdline_set_string, F(hostid) },
	{ "nvmf.hostid",      cmdline_set_string, F(hostid) },
	{ "rd.nvmf.discover", discover_add,       0 },
	{ "nvmf.discover",    discover_add,       0 },
	{ "rd.nonvmf",        cmdline_set_flag,   F(off) },
	{ "rd.nvmf.nonbft",   cmdline_set_flag,   F(nonbft) },
};
#undef F

struct cmdline_owner nvmf_args_cmdline(struct nvmf_args *a)
{
	return (struct cmdline_owner){ "nvmf", words, CMDLINE_N(words), a, NULL };
}

bool nvmf_args_wanted(const struct nvmf_args *a)
{
	return a->n_discover > 0 && !a->off;
}

/* The next comma-separated field of *p into out (size bytes); false when
 * it does not fit. */
static bool field_next(const char **p, char *out, size_t size)
{
	size_t n = strcspn(*p, ",");

	if (n >= size)
		return false;
	memcpy(out, *p, n);
	out[n] = '\0';
	*p += n + ((*p)[n] == ',');
	return true;
}

/* [ADDR] as the ip= words write IPv6: the kernel wants it plain. */
static void brackets_strip(char *addr)
{
	size_t n = strlen(addr);

	if (n >= 2 && addr[0] == '[' && addr[n - 1] == ']') {
		memmove(addr, addr + 1, n - 2);
		addr[n - 2] = '\0';
	}
}

int nvmf_args_discover_parse(const char *value, struct nvmf_fabrics_target *t,
			     char *why, size_t n)
{
	const char *p = value;
	char transport[16];
	bool ok;

	memset(t, 0, sizeof(*t));
	snprintf(t->nqn, sizeof(t->nqn), "%s", NVMF_FABRICS_DISCOVERY_NQN);
	ok = field_next(&p, transport, sizeof(transport)) &&
	     field_next(&p, t->traddr, sizeof(t->traddr)) &&
	     field_next(&p, t->host_traddr, sizeof(t->host_traddr)) &&
	     field_next(&p, t->trsvcid, sizeof(t->trsvcid));
	if (ok && strcmp(transport, "tcp") != 0) {
		snprintf(why, n, "rd.nvmf.discover=%s: the transport %s is not supported; only tcp "
			 "is (rd.nvmf.discover=tcp,ADDRESS[,HOST_ADDRESS[,PORT]])", value, transport);
		return -EINVAL;
	}
	brackets_strip(t->traddr);
	brackets_strip(t->host_traddr);
	if (!t->trsvcid[0])
		snprintf(t->trsvcid, sizeof(t->trsvcid), "%s", NVMF_FABRICS_PORT);
	if (!ok || *p || !t->traddr[0]) {
		snprintf(why, n, "rd.nvmf.discover=%s is not TRANSPORT,ADDRESS[,HOST_ADDRESS[,PORT]] "
			 "(e.g. rd.nvmf.discover=tcp,198.51.100.1,,4420)", value);
		return -EINVAL;
	}
	return 0;
}

/* 8-4-4-4-12 hexadecimal digits. */
static bool uuid_ok(const char *s)
{
	static const char form[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (strlen(s) != sizeof(form) - 1)
		return false;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == '-' ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool nqn_ok(const char *s)
{
	if (strncmp(s, "nqn.", 4) != 0 || strlen(s) >= NVMF_FABRICS_NQN_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == '=' || *s == 0x7f)
			return false;
	return true;
}

/* The command line's value, else the file's first line. */
static void value_pick(const char *given, const char *dir, const char *name, char *out, size_t size)
{
	char path[512];

	if (given[0]) {
		snprintf(out, size, "%s", given);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (file_read_line(path, out, size) < 0)
		out[0] = '\0';
}

int nvmf_args_host(const struct nvmf_args *a, const char *etc_dir,
		   struct nvmf_fabrics_host *h, char *why, size_t n)
{
	char nqn[CMDLINE_VALUE_MAX], id[CMDLINE_VALUE_MAX];

	memset(h, 0, sizeof(*h));
	value_pick(a->hostnqn, etc_dir, "hostnqn", nqn, sizeof(nqn));
	value_pick(a->hostid, etc_dir, "hostid", id, sizeof(id));
	if (!nqn[0]) {
		snprintf(why, n, "no NVMe host NQN: give rd.nvmf.hostnqn= (the host's "
			 "/etc/nvme/hostnqn; a host-only image carries it) and rd.nvmf.hostid=");
		return -ENOENT;
	}
	if (!nqn_ok(nqn)) {
		snprintf(why, n, "the NVMe host NQN %s%s is not an NQN (nqn.YYYY-MM.DOMAIN:NAME, at "
			 "most 223 characters, no spaces or commas); correct rd.nvmf.hostnqn=",
			 a->hostnqn[0] ? "" : "of the image's hostnqn file ", nqn);
		return -EINVAL;
	}
	if (!id[0] && strncmp(nqn, UUID_NQN_PREFIX, strlen(UUID_NQN_PREFIX)) == 0 &&
	    uuid_ok(nqn + strlen(UUID_NQN_PREFIX)))
		snprintf(id, sizeof(id), "%s", nqn + strlen(UUID_NQN_PREFIX));
	if (id[0] && !uuid_ok(id)) {
		snprintf(why, n, "the NVMe host ID %s is not a UUID "
			 "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx); correct rd.nvmf.hostid=", id);
		return -EINVAL;
	}
	/* Both checked above to fit (223 characters, a UUID's 36). */
	snprintf(h->nqn, sizeof(h->nqn), "%.*s", (int)sizeof(h->nqn) - 1, nqn);
	snprintf(h->id, sizeof(h->id), "%.*s", (int)sizeof(h->id) - 1, id);
	return 0;
}
