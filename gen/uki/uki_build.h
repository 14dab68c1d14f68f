/* uki_build: `lifeboat build --uki`: the initramfs just made, the kernel,
 * its command line and os-release put into systemd's EFI stub as one EFI
 * executable, written atomically and, when asked, signed for Secure Boot
 * with sbsign. */
#ifndef LIFEBOAT_UKI_BUILD_H
#define LIFEBOAT_UKI_BUILD_H

/* Debian's systemd-boot-efi. */
#define UKI_STUB_DEFAULT "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"

struct uki_inputs {
	const char *stub;        /* NULL: UKI_STUB_DEFAULT */
	const char *kernel;      /* the kernel image (vmlinuz) */
	const char *initrd;      /* the lifeboat image */
	const char *cmdline;     /* as uki_cmdline_decide chose it; NULL: no .cmdline section */
	const char *os_release;  /* NULL: /etc/os-release, else /usr/lib/os-release */
	const char *sign_key;    /* both or neither: sbsign --key --cert */
	const char *sign_cert;
};

/* Writes the unified kernel image to out (mode 0600: the initramfs may hold
 * keys). Returns 0 or -errno, reported with the file that failed. */
int uki_build(const struct uki_inputs *in, const char *out);

#endif
