/* uki_build: reading the parts of a unified kernel image, writing it
 * through a temporary file beside the output, and signing it. */
#include "gen/uki/uki_build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileread.h"
#include "gen/gen_report.h"
#include "gen/uki/uki.h"
#include "gen/uki/uki_sign.h"

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

/* The command line uki_cmdline_decide chose (none: no section). */
static int cmdline_part(const char *line, struct part_file *p)
{
	if (!line)
		return 0;
	p->data = strdup(line);
	p->len = p->data ? strlen(line) : 0;
	return p->data ? 0 : -ENOMEM;
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
		r = uki_sign(in->sign_key, in->sign_cert, tmp, signed_tmp);
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
