/* uki_build: reading the parts of a unified kernel image, writing it
 * through a temporary file beside the output, and signing it. */
#include "gen/uki/uki_build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileread.h"
#include "gen/gen_report.h"
#include "gen/uki/uki.h"

#define UKI_PART_MAX (1ul << 30)

/* The stub's section names (systemd's src/boot/efi/stub.c documents them). */
enum part { PART_STUB, PART_OSREL, PART_CMDLINE, PART_INITRD, PART_LINUX, PART_COUNT };

struct part_file {
	char *data;
	size_t len;
};

static int part_read(const char *what, const char *path, struct part_file *p)
{
	int r = file_read_all(path, UKI_PART_MAX, &p->data, &p->len);

	if (r < 0)
		gen_error("cannot read %s %s for the unified kernel image: %s; %s", what, path,
			  strerror(-r),
			  strcmp(what, "the EFI stub") == 0 ? "install systemd-boot-efi or give --uki-stub FILE"
							   : "check the file, or name another one");
	return r;
}

/* The first of paths that exists (NULL when none does). */
static const char *first_existing(const char *const *paths)
{
	for (; *paths; paths++)
		if (access(*paths, R_OK) == 0)
			return *paths;
	return NULL;
}

/* The command line: as given, or the file kernel-install reads; one line. */
static int cmdline_part(const char *given, struct part_file *p)
{
	static const char *const files[] = { "/etc/kernel/cmdline", "/usr/lib/kernel/cmdline", NULL };
	const char *file;
	int r;

	if (given) {
		p->data = strdup(given);
		p->len = p->data ? strlen(given) : 0;
		return p->data ? 0 : -ENOMEM;
	}
	file = first_existing(files);
	if (!file) {
		gen_warn("no --cmdline and no /etc/kernel/cmdline: the unified kernel image has no "
			 "command line, and under Secure Boot the stub ignores the boot loader's");
		return 0;
	}
	r = part_read("the kernel command line", file, p);
	while (r == 0 && p->len && (p->data[p->len - 1] == '\n' || p->data[p->len - 1] == ' '))
		p->data[--p->len] = '\0';
	for (size_t i = 0; i < p->len; i++)
		if (p->data[i] == '\n')
			p->data[i] = ' ';
	return r;
}

static int parts_read(const struct uki_inputs *in, struct part_file parts[PART_COUNT])
{
	static const char *const osrel[] = { "/etc/os-release", "/usr/lib/os-release", NULL };
	const char *os_release = in->os_release ? in->os_release : first_existing(osrel);
	int r = part_read("the EFI stub", in->stub ? in->stub : UKI_STUB_DEFAULT, &parts[PART_STUB]);

	if (r == 0 && os_release)
		r = part_read("the os-release file", os_release, &parts[PART_OSREL]);
	if (r == 0)
		r = cmdline_part(in->cmdline, &parts[PART_CMDLINE]);
	if (r == 0)
		r = part_read("the initramfs", in->initrd, &parts[PART_INITRD]);
	if (r == 0)
		r = part_read("the kernel image", in->kernel, &parts[PART_LINUX]);
	return r;
}

static int file_save(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int r = fd < 0 ? -errno : 0;

	for (size_t done = 0; r == 0 && done < len;) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* In the child: sbsign --key KEY --cert CERT --output OUT IN; its own
 * messages go to stderr. */
static void __attribute__((noreturn)) sbsign_exec(const struct uki_inputs *in,
						  const char *unsigned_path, const char *out)
{
	const char *argv[] = { "sbsign", "--key", in->sign_key, "--cert", in->sign_cert,
			       "--output", out, unsigned_path, NULL };

	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

static int sign(const struct uki_inputs *in, const char *unsigned_path, const char *out)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		sbsign_exec(in, unsigned_path, out);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return chmod(out, 0600) < 0 ? -errno : 0;
	gen_error("sbsign could not sign %s with key %s and certificate %s (%s); check that "
		  "sbsigntool is installed and that the key matches the certificate", out,
		  in->sign_key, in->sign_cert,
		  WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "sbsign not found" : "it failed");
	return -EIO;
}

/* The assembled image at a temporary name, signed to a second one when
 * asked, then renamed over out: out is never half-written. */
static int uki_save(const struct uki_inputs *in, const uint8_t *img, size_t len, const char *out)
{
	char tmp[4096], signed_tmp[4096];
	int r;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid());
	snprintf(signed_tmp, sizeof(signed_tmp), "%s.signed.%d", out, (int)getpid());
	r = file_save(tmp, img, len);
	if (r < 0) {
		gen_error("cannot write the unified kernel image %s (a temporary file beside it): %s; "
			  "check that the directory exists and is writable", out, strerror(-r));
		unlink(tmp);
		return r;
	}
	if (in->sign_key)
		r = sign(in, tmp, signed_tmp);
	if (r == 0 && rename(in->sign_key ? signed_tmp : tmp, out) < 0) {
		r = -errno;
		gen_error("cannot rename the unified kernel image into %s: %s", out, strerror(-r));
	}
	unlink(tmp);
	unlink(signed_tmp);
	return r;
}

int uki_build(const struct uki_inputs *in, const char *out)
{
	static const char *const names[PART_COUNT] = {
		[PART_OSREL] = ".osrel", [PART_CMDLINE] = ".cmdline",
		[PART_INITRD] = ".initrd", [PART_LINUX] = ".linux",
	};
	struct part_file parts[PART_COUNT] = { 0 };
	struct uki_section secs[PART_COUNT];
	size_t n = 0, len;
	uint8_t *img = NULL;
	const char *why = NULL;
	int r = parts_read(in, parts);

	/* In the stub's order, the kernel last. */
	for (int i = PART_OSREL; r == 0 && i < PART_COUNT; i++)
		if (parts[i].data && parts[i].len)
			secs[n++] = (struct uki_section){ names[i], (const uint8_t *)parts[i].data, parts[i].len };
	if (r == 0) {
		r = uki_assemble((const uint8_t *)parts[PART_STUB].data, parts[PART_STUB].len, secs, n,
				 &img, &len, &why);
		if (r < 0)
			gen_error("cannot make a unified kernel image from the EFI stub %s: %s; give "
				  "systemd-boot-efi's linuxx64.efi.stub with --uki-stub",
				  in->stub ? in->stub : UKI_STUB_DEFAULT, why);
	}
	if (r == 0)
		r = uki_save(in, img, len, out);
	free(img);
	for (int i = 0; i < PART_COUNT; i++)
		free(parts[i].data);
	return r;
}
