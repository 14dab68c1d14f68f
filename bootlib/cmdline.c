/* cmdline: parse the kernel command line into boot_args, table-driven. */
#include "bootlib/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootlib/stage.h"
#include "common/cmdwords.h"
#include "common/redact.h"

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
	a->shell = parse_bool(value);
	return 0;
}

/* rd.break alone stops before switch_root, as dracut's does; repeatable. */
static int set_break(struct boot_args *a, const char *value, size_t offset)
{
	int stage = value ? stage_parse(value) : STAGE_PRE_PIVOT;

	(void)offset;
	if (stage < 0)
		return stage;
	a->break_stages |= STAGE_BIT(stage);
	return 0;
}

static int set_ro(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->rw = ROOT_RW_RO;
	return 0;
}

static int set_rw(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->rw = ROOT_RW_RW;
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
	if (errno || *end || v > 24 * 3600)
		return -EINVAL;
	*(unsigned int *)((char *)a + offset) = (unsigned int)v;
	return 0;
}

static int set_noresume(struct boot_args *a, const char *value, size_t offset)
{
	(void)value;
	(void)offset;
	a->noresume = true;
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
	a->resume_offset = v;
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
 * blockstack/params.c, which parses them. */
static int push_stack_word(struct boot_args *a, const char *name, const char *value)
{
	char word[CMDLINE_VALUE_MAX * 2];

	if (value && strlen(value) >= CMDLINE_VALUE_MAX)
		return -ENAMETOOLONG;
	snprintf(word, sizeof(word), "%s%s%s", name, value ? "=" : "", value ? value : "");
	return strv_push(&a->stack_params, word);
}

#define STACK_PARAM(fn, name) 	static int fn(struct boot_args *a, const char *value, size_t offset) 	{ (void)offset; return push_stack_word(a, name, value); }
STACK_PARAM(set_rd_luks, "rd.luks")
STACK_PARAM(set_rd_luks_uuid, "rd.luks.uuid")
STACK_PARAM(set_rd_luks_name, "rd.luks.name")
STACK_PARAM(set_rd_luks_key, "rd.luks.key")
STACK_PARAM(set_rd_luks_options, "rd.luks.options")
STACK_PARAM(set_rd_luks_crypttab, "rd.luks.crypttab")
STACK_PARAM(set_rd_lvm, "rd.lvm")
STACK_PARAM(set_rd_lvm_vg, "rd.lvm.vg")
STACK_PARAM(set_rd_lvm_lv, "rd.lvm.lv")
STACK_PARAM(set_rd_md, "rd.md")
STACK_PARAM(set_rd_md_uuid, "rd.md.uuid")
STACK_PARAM(set_rd_fsck, "rd.fsck")
STACK_PARAM(set_fastboot, "fastboot")
STACK_PARAM(set_forcefsck, "forcefsck")
STACK_PARAM(set_rd_skipfsck, "rd.skipfsck")
STACK_PARAM(set_fsck_mode, "fsck.mode")

struct param {
	const char *name;
	param_fn fn;
	size_t offset;
};

#define FIELD(f) offsetof(struct boot_args, f)

static const struct param params[] = {
	{ "root",               set_string,  FIELD(root) },
	{ "rootfstype",         set_string,  FIELD(rootfstype) },
	{ "rootflags",          set_string,  FIELD(rootflags) },
	{ "init",               set_string,  FIELD(init) },
	{ "ro",                 set_ro,      0 },
	{ "rw",                 set_rw,      0 },
	{ "rd.timeout",         set_timeout, FIELD(timeout_sec) },
	{ "resume",             set_string,  FIELD(resume) },
	{ "resume_offset",      set_resume_offset, 0 },
	{ "noresume",           set_noresume, 0 },
	{ "rd.resume.timeout",  set_timeout, FIELD(resume_timeout_sec) },
	{ "rd.debug",           set_debug,   0 },
	{ "rd.shell",           set_shell,   0 },
	{ "rd.break",           set_break,   0 },
	{ "ip",                 set_string,  FIELD(ip) },
	{ "bootdev",            set_string,  FIELD(bootdev) },
	{ "nfsroot",            set_string,  FIELD(nfsroot) },
	{ "netroot",            set_string,  FIELD(netroot) },
	{ "rd.neednet",         set_flag,    FIELD(neednet) },
	{ "rd.net.timeout.dhcp", set_timeout, FIELD(net_timeout_dhcp) },
	{ "rd.net.timeout.carrier", set_timeout, FIELD(net_timeout_carrier) },
	{ "rd.iscsi.initiator", set_string,  FIELD(iscsi_initiator) },
	{ "rd.iscsi.target.name", set_string, FIELD(iscsi_target_name) },
	{ "rd.iscsi.target.ip", set_string,  FIELD(iscsi_target_ip) },
	{ "rd.iscsi.target.port", set_string, FIELD(iscsi_target_port) },
	{ "rd.iscsi.target.group", set_string, FIELD(iscsi_target_group) },
	{ "rd.iscsi.username",  set_string,  FIELD(iscsi_username) },
	{ "rd.iscsi.password",  set_string,  FIELD(iscsi_password) },
	{ "rd.iscsi.in.username", set_string, FIELD(iscsi_in_username) },
	{ "rd.iscsi.in.password", set_string, FIELD(iscsi_in_password) },
	{ "rd.iscsi.firmware",  set_flag,    FIELD(iscsi_firmware) },
	{ "rd.iscsi.ibft",      set_flag,    FIELD(iscsi_firmware) },
	{ "rd.driver.pre",      append_list, FIELD(driver_pre) },
	{ "rd.driver.post",     append_list, FIELD(driver_post) },
	{ "rd.driver.blacklist", append_list, FIELD(driver_blacklist) },
	{ "rd.luks",            set_rd_luks, 0 },
	{ "rd.luks.uuid",       set_rd_luks_uuid, 0 },
	{ "rd.luks.name",       set_rd_luks_name, 0 },
	{ "rd.luks.key",        set_rd_luks_key, 0 },
	{ "rd.luks.options",    set_rd_luks_options, 0 },
	{ "rd.luks.crypttab",   set_rd_luks_crypttab, 0 },
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

		if (!p)
			continue;
		pr = p->fn(args, eq ? eq + 1 : NULL, p->offset);
		if (pr < 0 && first_err == 0)
			first_err = pr;
	}
	for (size_t i = 0; i < words.len; i++)
		explicit_bzero(words.items[i], strlen(words.items[i]));
	strv_free(&words);
	return r < 0 ? r : first_err;
}

void boot_args_init(struct boot_args *args)
{
	memset(args, 0, sizeof(*args));
	args->timeout_sec = CMDLINE_DEFAULT_TIMEOUT;
	args->shell = true;   /* dracut's default */
	args->resume_timeout_sec = CMDLINE_DEFAULT_RESUME_TIMEOUT;
}

/* In place: the value of root=/netroot= without USER:PASSWORD@ still names
 * the target, so a retry after the rescue shell finds the session. */
static void path_creds_drop(char *value)
{
	char stripped[CMDLINE_VALUE_MAX];

	if (redact_path_strip(value, stripped, sizeof(stripped))) {
		explicit_bzero(value, CMDLINE_VALUE_MAX);
		strcpy(value, stripped);
	}
	explicit_bzero(stripped, sizeof(stripped));
}

void boot_args_drop_secrets(struct boot_args *args)
{
	explicit_bzero(args->iscsi_password, sizeof(args->iscsi_password));
	explicit_bzero(args->iscsi_in_password, sizeof(args->iscsi_in_password));
	path_creds_drop(args->root);
	path_creds_drop(args->netroot);
}

void boot_args_free(struct boot_args *args)
{
	strv_free(&args->driver_pre);
	strv_free(&args->driver_post);
	strv_free(&args->driver_blacklist);
	strv_free(&args->stack_params);
}
