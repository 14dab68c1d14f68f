/* cmdline: parse the kernel command line into boot_args, table-driven. */
#include "bootlib/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/modparams.h"
#include "bootlib/stage.h"
#include "common/cmdwords.h"

int cmdline_split(const char *line, struct strv *out)
{
	struct cmdword w;
	int r = 0;

	while (r == 0 && cmdwords_next(&line, &w))
		r = strv_push(out, w.text) < 0 ? -ENOMEM : 0;
	/* The words may be CHAP secrets (rd.iscsi.password=). */
	explicit_bzero(&w, sizeof(w));
	return r;
}

typedef int (*param_fn)(struct boot_args *a, const char *value, size_t offset);

/* Copy value into the char array at offset; NULL (no '=') clears it. */
static int set_string(struct boot_args *a, const char *value, size_t offset)
{
	char *dst = (char *)a + offset;

	if (!value)
		value = "";
	if (strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	strcpy(dst, value);
	return 0;
}

/* rd.* booleans: no value or anything but "0"/"no"/"false" means on. */
static bool parse_bool(const char *value)
{
	if (!value)
		return true;
	return !(strcmp(value, "0") == 0 || strcmp(value, "no") == 0 ||
		 strcmp(value, "false") == 0 || strcmp(value, "off") == 0);
}

static int set_debug(struct boot_args *a, const char *value, size_t offset)
{
	(void)offset;
	a->debug = parse_bool(value);
	return 0;
}

/* An rd.* boolean stored at offset. */
static int set_flag(struct boot_args *a, const char *value, size_t offset)
{
	*(bool *)((char *)a + offset) = parse_bool(value);
	return 0;
}

static int set_shell(struct boot_args *a, const char *value, size_t offset)
{
	(void)offset;
	a->rescue.shell = parse_bool(value);
	return 0;
}

/* rd.break alone stops before switch_root, as dracut's does; repeatable. */
static int set_break(struct boot_args *a, const char *value, size_t offset)
{
	int stage = value ? stage_parse(value) : STAGE_PRE_PIVOT;

	(void)offset;
	if (stage < 0)
		return stage;
	a->rescue.break_stages |= STAGE_BIT(stage);
	return 0;
}

static int set_ro(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->root.rw = ROOT_RW_RO;
	return 0;
}

static int set_rw(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->root.rw = ROOT_RW_RW;
	return 0;
}

static int set_timeout(struct boot_args *a, const char *value, size_t offset)
{
	char *end;
	unsigned long v;

	if (!value || !*value)
		return -EINVAL;
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || *end || *value == '-')
		return -EINVAL;
	if (v > CMDLINE_TIMEOUT_MAX)
		return -ERANGE;
	*(unsigned int *)((char *)a + offset) = (unsigned int)v;
	return 0;
}

/* A TCP port, 1..65535; anything else is refused (the default stays). */
static int set_port(struct boot_args *a, const char *value, size_t offset)
{
	char *end;
	unsigned long v;

	if (!value || !*value || *value == '-' || *value == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || *end || v == 0 || v > 65535)
		return -EINVAL;
	*(unsigned int *)((char *)a + offset) = (unsigned int)v;
	return 0;
}

static int set_noresume(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->resume.noresume = true;
	return 0;
}

/* resume_offset=: decimal pages, as the kernel reads it. */
static int set_resume_offset(struct boot_args *a, const char *value, size_t offset)
{
	char *end;
	unsigned long long v;

	(void)offset;
	if (!value || !*value || *value == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || *end)
		return -EINVAL;
	a->resume.offset = v;
	return 0;
}

/* Comma lists that accumulate over repeated parameters (dracut's rd.driver.*). */
static int append_list(struct boot_args *a, const char *value, size_t offset)
{
	struct strv *v = (struct strv *)((char *)a + offset);

	if (!value)
		return -EINVAL;
	return strv_split_append(v, value, ",");
}

/* Block-stack parameters are kept whole ("rd.luks.name=UUID=NAME") for
 * blockstack/params.c, which parses them; vlan=, bond=, bridge=, ifname=
 * likewise for net/netdevspec.c, once each (the image's /etc/cmdline.d and
 * the kernel's line may both say it). */
static int push_word(struct strv *v, const char *name, const char *value, bool unique)
{
	char word[CMDLINE_VALUE_MAX * 2];

	if (value && strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	snprintf(word, sizeof(word), "%s%s%s", name, value ? "=" : "", value ? value : "");
	return unique ? strv_push_unique(v, word) : strv_push(v, word);
}

static int push_stack_word(struct boot_args *a, const char *name, const char *value)
{
	return push_word(&a->stack_params, name, value, false);
}

#define NETDEV_PARAM(fn, name) \
	static int fn(struct boot_args *a, const char *value, size_t offset) \
	{ (void)offset; return push_word(&a->net.netdevs, name, value, true); }
NETDEV_PARAM(set_vlan, "vlan")
NETDEV_PARAM(set_bond, "bond")
NETDEV_PARAM(set_bridge, "bridge")
NETDEV_PARAM(set_ifname, "ifname")

/* rd.bootif=0: BOOTIF= is not used to choose the interface. */
static int set_bootif_ignored(struct boot_args *a, const char *value, size_t offset)
{
	(void)offset;
	a->net.bootif_ignored = !parse_bool(value);
	return 0;
}

#define STACK_PARAM(fn, name) 	static int fn(struct boot_args *a, const char *value, size_t offset) 	{ (void)offset; return push_stack_word(a, name, value); }
STACK_PARAM(set_rd_luks, "rd.luks")
STACK_PARAM(set_rd_luks_uuid, "rd.luks.uuid")
STACK_PARAM(set_rd_luks_name, "rd.luks.name")
STACK_PARAM(set_rd_luks_key, "rd.luks.key")
STACK_PARAM(set_rd_luks_options, "rd.luks.options")
STACK_PARAM(set_rd_luks_crypttab, "rd.luks.crypttab")
STACK_PARAM(set_rd_luks_timeout, "rd.luks.timeout")
STACK_PARAM(set_rd_lvm, "rd.lvm")
STACK_PARAM(set_rd_lvm_vg, "rd.lvm.vg")
STACK_PARAM(set_rd_lvm_lv, "rd.lvm.lv")
STACK_PARAM(set_rd_md, "rd.md")
STACK_PARAM(set_rd_md_uuid, "rd.md.uuid")

/* rd.fsck=0 skips the check; rd.fsck (or =1) asks for it again. */
static int set_rd_fsck(struct boot_args *a, const char *value, size_t offset)
{
	(void)offset;
	a->fsck = parse_bool(value) ? FSCK_MODE_AUTO : FSCK_MODE_SKIP;
	return 0;
}

/* fastboot: the kernel's old word for "skip the filesystem check". */
static int set_fastboot(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->fsck = FSCK_MODE_SKIP;
	return 0;
}

/* forcefsck: the kernel's old word for "check even a clean filesystem". */
static int set_forcefsck(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->fsck = FSCK_MODE_FORCE;
	return 0;
}

/* rd.skipfsck: dracut's switch (a flag; rd.skipfsck=0 turns it off again). */
static int set_rd_skipfsck(struct boot_args *a, const char *value, size_t offset)
{
	(void)offset;
	a->fsck = parse_bool(value) ? FSCK_MODE_SKIP : FSCK_MODE_AUTO;
	return 0;
}

/* fsck.mode=auto|force|skip: systemd-fsck's, which dracut's images read too. */
static int set_fsck_mode(struct boot_args *a, const char *value, size_t offset)
{
	static const char *const modes[] = {
		[FSCK_MODE_SKIP] = "skip", [FSCK_MODE_AUTO] = "auto", [FSCK_MODE_FORCE] = "force",
	};

	(void)offset;
	for (size_t i = 0; value && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(value, modes[i]) == 0) {
			a->fsck = (enum fsck_mode)i;
			return 0;
		}
	return -EINVAL;
}

struct param {
	const char *name;
	param_fn fn;
	size_t offset;
};

#define FIELD(f) offsetof(struct boot_args, f)

static const struct param params[] = {
	{ "root",               set_string,  FIELD(root.root) },
	{ "rootfstype",         set_string,  FIELD(root.fstype) },
	{ "rootflags",          set_string,  FIELD(root.flags) },
	{ "init",               set_string,  FIELD(root.init) },
	{ "ro",                 set_ro,      0 },
	{ "rw",                 set_rw,      0 },
	{ "rd.timeout",         set_timeout, FIELD(root.timeout_sec) },
	{ "resume",             set_string,  FIELD(resume.device) },
	{ "resume_offset",      set_resume_offset, 0 },
	{ "noresume",           set_noresume, 0 },
	{ "rd.resume.timeout",  set_timeout, FIELD(resume.timeout_sec) },
	{ "rd.debug",           set_debug,   0 },
	{ "rd.shell",           set_shell,   0 },
	{ "rd.break",           set_break,   0 },
	{ "ip",                 set_string,  FIELD(net.ip) },
	{ "bootdev",            set_string,  FIELD(net.bootdev) },
	{ "nfsroot",            set_string,  FIELD(net.nfsroot) },
	{ "netroot",            set_string,  FIELD(net.netroot) },
	{ "rd.neednet",         set_flag,    FIELD(net.neednet) },
	{ "rd.net.timeout.dhcp", set_timeout, FIELD(net.timeout_dhcp) },
	{ "rd.net.timeout.carrier", set_timeout, FIELD(net.timeout_carrier) },
	{ "rd.net.timeout.iflink", set_timeout, FIELD(net.timeout_iflink) },
	{ "vlan",               set_vlan,    0 },
	{ "bond",               set_bond,    0 },
	{ "bridge",             set_bridge,  0 },
	{ "ifname",             set_ifname,  0 },
	{ "BOOTIF",             set_string,  FIELD(net.bootif) },
	{ "rd.bootif",          set_bootif_ignored, 0 },
	{ "rd.iscsi.initiator", set_string,  FIELD(iscsi.initiator) },
	{ "rd.iscsi.target.name", set_string, FIELD(iscsi.target_name) },
	{ "rd.iscsi.target.ip", set_string,  FIELD(iscsi.target_ip) },
	{ "rd.iscsi.target.port", set_string, FIELD(iscsi.target_port) },
	{ "rd.iscsi.target.group", set_string, FIELD(iscsi.target_group) },
	{ "rd.iscsi.username",  set_string,  FIELD(iscsi.username) },
	{ "rd.iscsi.password",  set_string,  FIELD(iscsi.password) },
	{ "rd.iscsi.in.username", set_string, FIELD(iscsi.in_username) },
	{ "rd.iscsi.in.password", set_string, FIELD(iscsi.in_password) },
	{ "rd.iscsi.firmware",  set_flag,    FIELD(iscsi.firmware) },
	{ "rd.iscsi.ibft",      set_flag,    FIELD(iscsi.firmware) },
	{ "rd.ssh",             set_flag,    FIELD(remote.ssh) },
	{ "rd.ssh.port",        set_port,    FIELD(remote.port) },
	{ "rd.driver.pre",      append_list, FIELD(drivers.pre) },
	{ "rd.driver.post",     append_list, FIELD(drivers.post) },
	{ "rd.driver.blacklist", append_list, FIELD(drivers.blacklist) },
	{ "rd.luks",            set_rd_luks, 0 },
	{ "rd.luks.uuid",       set_rd_luks_uuid, 0 },
	{ "rd.luks.name",       set_rd_luks_name, 0 },
	{ "rd.luks.key",        set_rd_luks_key, 0 },
	{ "rd.luks.options",    set_rd_luks_options, 0 },
	{ "rd.luks.crypttab",   set_rd_luks_crypttab, 0 },
	{ "rd.luks.timeout",    set_rd_luks_timeout, 0 },
	{ "rd.lvm",             set_rd_lvm, 0 },
	{ "rd.lvm.vg",          set_rd_lvm_vg, 0 },
	{ "rd.lvm.lv",          set_rd_lvm_lv, 0 },
	{ "rd.md",              set_rd_md, 0 },
	{ "rd.md.uuid",         set_rd_md_uuid, 0 },
	{ "rd.fsck",            set_rd_fsck, 0 },
	{ "fastboot",           set_fastboot, 0 },
	{ "forcefsck",          set_forcefsck, 0 },
	{ "rd.skipfsck",        set_rd_skipfsck, 0 },
	{ "fsck.mode",          set_fsck_mode, 0 },
	{ "rd.vconsole.keymap", set_string,  FIELD(vconsole.keymap) },
	{ "vconsole.keymap",    set_string,  FIELD(vconsole.keymap) },
	{ "rd.vconsole.font",   set_string,  FIELD(vconsole.font) },
	{ "vconsole.font",      set_string,  FIELD(vconsole.font) },
};

static const struct param *param_find(const char *word, size_t name_len)
{
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		if (strlen(params[i].name) == name_len &&
		    strncmp(params[i].name, word, name_len) == 0)
			return &params[i];
	return NULL;
}

/* A malformed value of one parameter does not stop the others: the init must
 * boot as far as it can. The first error is returned for the caller to log. */
int cmdline_parse(const char *line, struct boot_args *args)
{
	struct strv words = STRV_INIT;
	int first_err = 0;
	int r = cmdline_split(line, &words);

	for (size_t i = 0; r == 0 && i < words.len; i++) {
		const char *w = words.items[i];
		const char *eq = strchr(w, '=');
		size_t name_len = eq ? (size_t)(eq - w) : strlen(w);
		const struct param *p = param_find(w, name_len);
		int pr;

		if (!p) {
			pr = modparams_is_word(w) ? strv_push(&args->drivers.params, w) : 0;
			if (pr < 0 && first_err == 0)
				first_err = pr;
			continue;
		}
		pr = p->fn(args, eq ? eq + 1 : NULL, p->offset);
		if (pr < 0 && first_err == 0) {
			first_err = pr;
			snprintf(args->bad_param, sizeof(args->bad_param), "%s", p->name);
		}
	}
	for (size_t i = 0; i < words.len; i++)
		explicit_bzero(words.items[i], strlen(words.items[i]));
	strv_free(&words);
	return r < 0 ? r : first_err;
}

void cmdline_args_init(struct boot_args *args)
{
	memset(args, 0, sizeof(*args));
	args->root.timeout_sec = CMDLINE_DEFAULT_TIMEOUT;
	args->rescue.shell = true;   /* dracut's default */
	args->fsck = FSCK_MODE_AUTO;
	args->resume.timeout_sec = CMDLINE_DEFAULT_RESUME_TIMEOUT;
	args->remote.ssh = true;
	args->remote.port = CMDLINE_DEFAULT_SSH_PORT;
}

void cmdline_args_free(struct boot_args *args)
{
	strv_free(&args->drivers.pre);
	strv_free(&args->drivers.post);
	strv_free(&args->drivers.blacklist);
	strv_free(&args->drivers.params);
	strv_free(&args->stack_params);
	strv_free(&args->net.netdevs);
}
