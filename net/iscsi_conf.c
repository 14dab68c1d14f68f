/* iscsi_conf: choose the iSCSI target and initiator name from what the boot knows. */
#include "net/iscsi_conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define DEFAULT_GROUP 1

/* rd.iscsi.username=, .password=, .in.username=, .in.password= */
static const struct {
	size_t arg;
	size_t chap;
} chap_params[] = {
	{ offsetof(struct iscsi_args, username),    offsetof(struct iscsi_chap, username) },
	{ offsetof(struct iscsi_args, password),    offsetof(struct iscsi_chap, password) },
	{ offsetof(struct iscsi_args, in_username), offsetof(struct iscsi_chap, in_username) },
	{ offsetof(struct iscsi_args, in_password), offsetof(struct iscsi_chap, in_password) },
};

void iscsi_conf_chap(const struct net_request *a, struct iscsi_target *t)
{
	for (size_t i = 0; i < sizeof(chap_params) / sizeof(chap_params[0]); i++) {
		const char *v = (const char *)a->iscsi + chap_params[i].arg;

		/* Both are CMDLINE_VALUE_MAX == ISCSI_SECRET_MAX bytes. */
		if (v[0])
			snprintf((char *)&t->chap + chap_params[i].chap, ISCSI_SECRET_MAX, "%s", v);
	}
}

void iscsi_conf_forget(struct iscsi_args *a)
{
	explicit_bzero(a->password, sizeof(a->password));
	explicit_bzero(a->in_password, sizeof(a->in_password));
	/* rd.iscsi.param=node.session.auth.password=... and the like. */
	for (unsigned int i = 0; i < a->n_params && i < ISCSI_ARGS_PARAMS_MAX; i++)
		if (strstr(a->params[i], "password"))
			explicit_bzero(a->params[i], sizeof(a->params[i]));
}

/* A decimal number within [1, max]; empty is 0 (not given). */
static int number_parse(const char *s, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v;

	*out = 0;
	if (!s[0])
		return 0;
	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (*end || v == 0 || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* rd.iscsi.target.name=, .ip=, .port=, .group= */
static int target_from_params(const struct net_request *a, struct iscsi_target *t,
			      char *why, size_t n)
{
	memset(t, 0, sizeof(*t));
	if (strlen(a->iscsi->target_name) >= sizeof(t->name) ||
	    strlen(a->iscsi->target_ip) >= sizeof(t->server)) {
		snprintf(why, n, "rd.iscsi.target.name= or rd.iscsi.target.ip= is too long");
		return -ENAMETOOLONG;
	}
	strcpy(t->name, a->iscsi->target_name);
	strcpy(t->server, a->iscsi->target_ip);
	if (number_parse(a->iscsi->target_port, 65535, &t->port) < 0) {
		snprintf(why, n, "rd.iscsi.target.port=%s is not a port number (1-65535)",
			 a->iscsi->target_port);
		return -EINVAL;
	}
	return 0;
}

static int target_from_path(const char *param, const char *text, struct iscsi_target *t,
			    char *why, size_t n)
{
	int r = rfc4173_parse(text, t);

	/* The text may hold a password: it is not repeated in the message. */
	if (r == -EPROTONOSUPPORT)
		snprintf(why, n, "%s names a transport other than TCP (protocol 6), the only "
			 "one supported; leave the protocol field empty", param);
	else if (r < 0)
		snprintf(why, n, "%s is not an iSCSI root path; write it as iscsi:[USER:PASSWORD@]"
			 "SERVER:[6]:[PORT]:[LUN]:TARGET-NAME (RFC 4173)", param);
	return r;
}

int iscsi_conf_target(const struct net_request *a, const char *root_path,
		      struct iscsi_target *t, char *why, size_t n)
{
	int r;

	if (a->root.from == NET_ROOT_FROM_SPEC)
		r = target_from_path(a->root.spec_word, a->root.spec, t, why, n);
	else if (a->root.from == NET_ROOT_FROM_PARAMS)
		r = target_from_params(a, t, why, n);
	else if (root_path && rfc4173_is_iscsi(root_path))
		r = target_from_path("DHCP's root-path (option 17)", root_path, t, why, n);
	else {
		bool other = root_path && root_path[0];

		snprintf(why, n, "no iSCSI target is named: give netroot=iscsi:SERVER::::TARGET-NAME "
			 "or rd.iscsi.target.name= and rd.iscsi.target.ip=, or set the DHCP "
			 "server's root-path to iscsi:...%s%s", other ?
			 " (it gives a root-path that is not iscsi:)" : "",
			 other && strcmp(a->root.root, "/dev/root") == 0 ?
			 "; for an NFS root by DHCP, write root=dhcp instead of root=/dev/root" : "");
		return -ENOENT;
	}
	if (r < 0)
		return r;
	if (number_parse(a->iscsi->target_group, 65535, &t->group) < 0) {
		snprintf(why, n, "rd.iscsi.target.group=%s is not a portal group tag (1-65535)",
			 a->iscsi->target_group);
		return -EINVAL;
	}
	iscsi_conf_chap(a, t);
	if (!t->port)
		t->port = ISCSI_DEFAULT_PORT;
	if (!t->group)
		t->group = DEFAULT_GROUP;
	return 0;
}

int iscsi_conf_portals(const struct net_request *a, struct iscsi_target *t, size_t max,
		       char *why, size_t n)
{
	const struct strv *roots = &a->net->iscsi_roots;
	struct net_request one = *a;
	int r = 0;

	if (roots->len < 2 || a->root.from != NET_ROOT_FROM_SPEC ||
	    strcmp(a->root.spec_word, "netroot=") != 0)
		return 0;
	if (roots->len > max) {
		snprintf(why, n, "%zu netroot=iscsi:... words are given; at most %zu portals are "
			 "logged in to", roots->len, max);
		return -E2BIG;
	}
	for (size_t i = 0; i < roots->len && r == 0; i++) {
		one.root.spec = roots->items[i];
		r = iscsi_conf_target(&one, NULL, &t[i], why, n);
	}
	return r < 0 ? r : (int)roots->len;
}

/* InitiatorName=NAME from an open-iscsi initiatorname.iscsi file. */
static int initiator_file_read(const char *file, char *out, size_t size)
{
	char line[512];
	FILE *f = fopen(file, "re");
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (r < 0 && fgets(line, sizeof(line), f)) {
		const char *v = line + strspn(line, " \t");

		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(v, "InitiatorName=", 14) != 0 || !v[14])
			continue;
		v += 14;
		if (strlen(v) < size && !strpbrk(v, " \t")) {
			strcpy(out, v);
			r = 0;
		}
	}
	fclose(f);
	return r;
}

void iscsi_conf_initiator(const struct net_request *a, const char *firmware, const char *file,
			  const uint8_t mac[6], char *out, size_t size)
{
	if (a->iscsi->initiator[0])
		snprintf(out, size, "%s", a->iscsi->initiator);
	else if (firmware && firmware[0])
		snprintf(out, size, "%s", firmware);
	else if (!file || initiator_file_read(file, out, size) < 0)
		snprintf(out, size, ISCSI_GENERATED_PREFIX "%02x%02x%02x%02x%02x%02x",
			 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}
