/* kdump_load: `lifeboat kdump load|status|unload`: arm the crash kernel
 * with kexec_file_load(2), without kexec-tools. */
#include "gen/cmd/kdump_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cmdwords.h"
#include "common/fileread.h"
#include "common/redact.h"
#include "gen/gen_report.h"
#include "gen/host/nethost.h"

/* From the kernel's uapi linux/kexec.h (no glibc wrapper exists). */
#define KEXEC_FILE_UNLOAD 0x1
#define KEXEC_FILE_ON_CRASH 0x2

#define CRASH_SIZE "/sys/kernel/kexec_crash_size"
#define CRASH_LOADED "/sys/kernel/kexec_crash_loaded"
#define CMDLINE_MAX 4096

static const char *const dropped_params[] = { "crashkernel=", "BOOT_IMAGE=", "initrd=" };

static bool param_dropped(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof(dropped_params) / sizeof(dropped_params[0]); i++) {
		size_t n = strlen(dropped_params[i]);

		if (len >= n && strncmp(word, dropped_params[i], n) == 0)
			return true;
	}
	return false;
}

static int append_word(char *out, size_t size, size_t *pos, const char *word, size_t len)
{
	if (*pos + len + 2 > size)
		return -ENAMETOOLONG;
	if (*pos)
		out[(*pos)++] = ' ';
	memcpy(out + *pos, word, len);
	*pos += len;
	out[*pos] = '\0';
	return 0;
}

/* Does the command line give the parameter name (with its '=')? */
static bool has_param(const char *cmdline, const char *name)
{
	size_t n = strlen(name);
	struct cmdword w;

	while (cmdline && cmdwords_next(&cmdline, &w))
		if (w.len > n && strncmp(w.text, name, n) == 0)
			return true;
	return false;
}

/* Words are split as the kernel does (common/cmdwords.h); a dropped
 * parameter is recognised as the kernel reads it, quotes removed. */
int kdump_load_capture_cmdline(const char *running, const char *extra, char *out, size_t size)
{
	struct cmdword w;
	size_t pos = 0;
	int r = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	while (r == 0 && cmdwords_next(&running, &w))
		if (!param_dropped(w.text, w.len))
			r = append_word(out, size, &pos, w.raw, w.raw_len);
	if (r == 0)
		r = append_word(out, size, &pos, "irqpoll", 7);
	/* The kernel only ever lowers the CPU count with nr_cpus=, so a later
	 * nr_cpus=2 would not undo our nr_cpus=1. */
	if (r == 0 && !has_param(extra, "nr_cpus="))
		r = append_word(out, size, &pos, "nr_cpus=1", 9);
	if (r == 0)
		r = append_word(out, size, &pos, "reset_devices", 13);
	if (r == 0 && extra && *extra)
		r = append_word(out, size, &pos, extra, strlen(extra));
	return r;
}

/* The capture kernel's network, when neither the running command line nor
 * --append says how (ip=): the default route's interface and what it
 * stands on, as dracut's words (gen/host/nethost.h). Without them a
 * network dump target could not be reached from a machine whose network
 * the real root configured. Printed, as the user may have to correct it. */
static void capture_net_words(const char *running, const char *append, char *words, size_t size)
{
	struct nethost_facts f;
	struct nethost_addr a;
	char why[256];

	words[0] = '\0';
	if (has_param(running, "ip=") || has_param(append, "ip="))
		return;
	if (nethost_default_route("", &f) < 0) {
		printf("kdump: no default route: the capture kernel gets no ip=; a network dump "
		       "target needs one (--append 'ip=...')\n");
		return;
	}
	if (nethost_addr_read(f.iface, f.family, &a) < 0 &&
	    nethost_addr_read(f.iface, f.family == AF_INET ? AF_INET6 : AF_INET, &a) < 0)
		a.family = 0;
	if (nethost_words(&f, &a, words, size, why, sizeof(why)) < 0) {
		words[0] = '\0';
		printf("kdump: the network of %s cannot be given to the capture kernel: %s; a "
		       "network dump target needs --append 'ip=...' (and vlan=, bond=, bridge=)\n",
		       f.iface, why);
		return;
	}
	printf("kdump: the capture kernel's network, from %s: %s (--append 'ip=...' chooses "
	       "another)\n", f.iface, words);
}

static long read_sys_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int read_running_cmdline(char *buf, size_t size)
{
	ssize_t n = file_read_text("/proc/cmdline", 0, buf, size);

	buf[strcspn(buf, "\n")] = '\0';
	return n < 0 ? (int)n : 0;
}

/* What a refusal of kexec_file_load means, and what to do about it. */
static const char *load_error_hint(int err)
{
	switch (err) {
	case EPERM:
		return "the kernel forbids it: run as root; under lockdown (Secure Boot) the kernel "
		       "must be signed by a key the kernel trusts";
	case EKEYREJECTED:
	case EBADMSG:
		return "the kernel's signature was rejected: use a kernel signed by a trusted key";
	case ENOMEM:
	case EADDRNOTAVAIL:
	case EFBIG:
		return "the kernel and image do not fit the crashkernel= memory: reserve more "
		       "(crashkernel=256M) or make the image smaller";
	case ENOEXEC:
		return "the kernel file is not a kernel image this kernel can load (bzImage on x86_64)";
	case ENOSYS:
		return "this kernel was built without kexec_file_load (CONFIG_KEXEC_FILE)";
	case EBUSY:
		return "a crash kernel is in use: retry";
	default:
		return "see the kernel log (dmesg) for the reason";
	}
}

struct load_opts {
	char kernel[512], image[512];
	const char *append;
};

static int parse_load_opts(int argc, char **argv, struct load_opts *o)
{
	struct utsname u;

	uname(&u);
	snprintf(o->kernel, sizeof(o->kernel), "/boot/vmlinuz-%s", u.release);
	snprintf(o->image, sizeof(o->image), "/boot/lifeboat-kdump.img-%s", u.release);
	o->append = "";
	for (int i = 2; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--kernel") == 0)
			snprintf(o->kernel, sizeof(o->kernel), "%s", argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--image") == 0)
			snprintf(o->image, sizeof(o->image), "%s", argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--append") == 0)
			o->append = argv[++i];
		else {
			gen_error("kdump load: unknown or incomplete option '%s'; usage: lifeboat kdump "
				  "load [--kernel FILE] [--image FILE] [--append '...']", argv[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int kdump_load(int argc, char **argv)
{
	char running[CMDLINE_MAX], cmdline[CMDLINE_MAX], shown[CMDLINE_MAX];
	char net[CMDLINE_MAX / 2] = "", extra[CMDLINE_MAX];
	struct load_opts o = { .append = "" };
	int kfd, ifd, err = 0;

	if (parse_load_opts(argc, argv, &o) < 0)
		return 2;
	if (read_sys_number(CRASH_SIZE) <= 0) {
		gen_error("kdump load: no memory is reserved for a crash kernel (%s is 0 or missing); "
			  "add crashkernel=256M to the kernel command line and reboot", CRASH_SIZE);
		return 1;
	}
	err = read_running_cmdline(running, sizeof(running));
	if (err == 0)
		capture_net_words(running, o.append, net, sizeof(net));
	/* --append after the derived words: the last occurrence wins. */
	if (err < 0 || snprintf(extra, sizeof(extra), "%s%s%s", net, net[0] ? " " : "",
				o.append) >= (int)sizeof(extra) ||
	    kdump_load_capture_cmdline(running, extra, cmdline, sizeof(cmdline)) < 0) {
		gen_error("kdump load: the capture command line from /proc/cmdline and --append is "
			  "unreadable or longer than %d bytes; shorten --append", CMDLINE_MAX);
		return 1;
	}
	kfd = open(o.kernel, O_RDONLY | O_CLOEXEC);
	ifd = open(o.image, O_RDONLY | O_CLOEXEC);
	if (kfd < 0 || ifd < 0) {
		gen_error("kdump load: cannot open %s: %s; give it with %s", kfd < 0 ? o.kernel : o.image,
			  strerror(errno), kfd < 0 ? "--kernel" : "--image (made by lifeboat build --kdump)");
		err = -1;
	} else if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline,
			   (unsigned long)KEXEC_FILE_ON_CRASH) < 0) {
		err = errno;
		gen_error("kdump load: the kernel refused %s with %s: %s; %s", o.kernel, o.image,
			  strerror(err), load_error_hint(err));
	}
	if (kfd >= 0)
		close(kfd);
	if (ifd >= 0)
		close(ifd);
	if (err)
		return 1;
	/* /proc/cmdline may hold CHAP secrets (rd.iscsi.password=): not shown. */
	redact_cmdline(cmdline, shown, sizeof(shown));
	printf("kdump: armed: %s with %s, command line: %s\n", o.kernel, o.image, shown);
	return 0;
}

static int kdump_unload(void)
{
	if (syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
		    (unsigned long)(KEXEC_FILE_UNLOAD | KEXEC_FILE_ON_CRASH)) < 0) {
		gen_error("kdump unload: the kernel refused: %s; %s", strerror(errno), load_error_hint(errno));
		return 1;
	}
	printf("kdump: unloaded\n");
	return 0;
}

static int kdump_status(void)
{
	long size = read_sys_number(CRASH_SIZE), loaded = read_sys_number(CRASH_LOADED);

	printf("crash memory: %ld MiB%s\n", size > 0 ? size >> 20 : 0,
	       size > 0 ? "" : " (none reserved: add crashkernel=256M to the kernel command line)");
	printf("crash kernel: %s\n", loaded == 1 ? "loaded" : "not loaded (lifeboat kdump load)");
	return loaded == 1 ? 0 : 3;
}

int kdump_load_main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "load") == 0)
		return kdump_load(argc, argv);
	if (argc == 2 && strcmp(argv[1], "unload") == 0)
		return kdump_unload();
	if (argc == 2 && strcmp(argv[1], "status") == 0)
		return kdump_status();
	fprintf(stderr, "usage: lifeboat kdump load [--kernel FILE] [--image FILE] [--append '...']\n"
			"       lifeboat kdump status | unload\n");
	return 2;
}
