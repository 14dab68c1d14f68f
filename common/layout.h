/* layout: the paths inside the image that the generator writes and the init
 * (or one of its components) reads, each spelled here once.
 *
 * Also part of the contract, in their own headers in common/: the module
 * table (MODTAB_PATH, common/modtab.h), the kdump settings
 * (KDUMP_CONF_PATH, common/kdumpconf.h), the boot timeline
 * (common/timeline_format.h) and the modules the init loads by name
 * (common/featuremods.h). docs/image-layout.md describes the whole image.
 */
#ifndef LIFEBOAT_LAYOUT_H
#define LIFEBOAT_LAYOUT_H

/* What the image was built with (`lifeboat ls`, the rescue report). */
#define LAYOUT_BUILD_CONF "/etc/lifeboat/build.conf"
/* Present in generic images: coldplug leaves IDE controllers and PS/2 ports for later
 * (bootlib/coldplug.h). */
#define LAYOUT_GENERIC "/etc/lifeboat/generic"
/* In host-only images: the type of the build host's root filesystem, one
 * line ("ext4"); the init loads its module while it waits for the root. */
#define LAYOUT_ROOT_FSTYPE "/etc/lifeboat/root-fstype"
/* Present in images that carry the TPM2 unlock (--tpm2, or a host-only
 * image whose host has a systemd-tpm2 token: gen/feature/systoken_pack.c): an
 * image without it says so when it meets a TPM2 token (blockstack/lukstpm2.c). */
#define LAYOUT_TPM2_MARK "/etc/lifeboat/tpm2"
/* The same for the FIDO2 unlock (--fido2, or a host with a systemd-fido2
 * token: gen/feature/systoken_pack.c; read by blockstack/luksfido2.c). */
#define LAYOUT_FIDO2_MARK "/etc/lifeboat/fido2"
/* The same for the PKCS#11 unlock (--pkcs11, or a host with a systemd-pkcs11
 * token: gen/feature/systoken_pack.c; read by blockstack/lukspkcs11.c). */
#define LAYOUT_PKCS11_MARK "/etc/lifeboat/pkcs11"

/* Kernel parameters built into the image: every *.conf here is read, in
 * name order, before /proc/cmdline (whose words win). */
#define LAYOUT_CMDLINE_DIR "/etc/cmdline.d"
/* Host-only: rd.luks.uuid=, rd.md.uuid=, rd.lvm.vg= of the root's stack. */
#define LAYOUT_CMDLINE_STACKS LAYOUT_CMDLINE_DIR "/30-stacks.conf"
/* Host-only: resume= of the host's swap. */
#define LAYOUT_CMDLINE_RESUME LAYOUT_CMDLINE_DIR "/40-resume.conf"
/* A host-only image's rd.nvmf.discover= words, from the host's NVMe/TCP
 * controllers (gen/feature/nvmf_pack.c). */
#define LAYOUT_CMDLINE_NVMF LAYOUT_CMDLINE_DIR "/35-nvmf.conf"
/* The keyboard layout (and font) built in: rd.vconsole.keymap= of the
 * host's or --keymap's layout, under the user's and the kernel's words. */
#define LAYOUT_CMDLINE_VCONSOLE LAYOUT_CMDLINE_DIR "/20-vconsole.conf"
/* The console font built in: rd.vconsole.font= of the host's or --font's. */
#define LAYOUT_CMDLINE_VFONT LAYOUT_CMDLINE_DIR "/21-vconsole-font.conf"
/* The command-line defaults the hooks asked for (hooks.d's `cmdline`
 * requests, docs/extending.md): over lifeboat's own above, under --cmdline. */
#define LAYOUT_CMDLINE_HOOKS LAYOUT_CMDLINE_DIR "/48-hooks.conf"
/* --cmdline: last of the image's, so the user's words win over the above. */
#define LAYOUT_CMDLINE_USER LAYOUT_CMDLINE_DIR "/50-lifeboat.conf"

/* Console keymaps compiled at build time (`loadkeys -b`, common/bkeymap.h):
 * LAYOUT_KEYMAP_DIR/NAME LAYOUT_KEYMAP_SUFFIX for rd.vconsole.keymap=NAME. */
#define LAYOUT_KEYMAP_DIR "/usr/lib/lifeboat/keymaps"
#define LAYOUT_KEYMAP_SUFFIX ".bmap"

/* Console fonts (PSF1/PSF2, common/psf.h), uncompressed:
 * LAYOUT_FONT_DIR/NAME LAYOUT_FONT_SUFFIX for rd.vconsole.font=NAME. */
#define LAYOUT_FONT_DIR "/usr/lib/lifeboat/consolefonts"
#define LAYOUT_FONT_SUFFIX ".psf"

/* The boot scripts hooks.d asked for: LAYOUT_HOOK_SCRIPTS/STAGE/NAME, STAGE
 * one of dracut's names (common/hookspec.h), run by bootlib/hookrun.c. */
#define LAYOUT_HOOK_SCRIPTS "/usr/lib/lifeboat/hooks"

/* The CA bundle for https:// kdump targets without their own cafile=. */
#define LAYOUT_KDUMP_CA "/etc/lifeboat/kdump-ca.pem"

/* The rescue shell's busybox, and how the image carries it: xz-compressed,
 * with the names of the applet links to make beside it, one a line. The
 * kernel would otherwise unpack 2 MB and 300 links on every boot (25 ms of
 * the benchmark's) for a shell most boots never start; the init makes them
 * on first use (bootlib/shell.c). */
#define LAYOUT_BUSYBOX_DIR "/usr/bin"
#define LAYOUT_BUSYBOX LAYOUT_BUSYBOX_DIR "/busybox"
#define LAYOUT_BUSYBOX_XZ "/usr/lib/lifeboat/busybox.xz"
#define LAYOUT_BUSYBOX_APPLETS "/usr/lib/lifeboat/busybox.applets"

/* lifeboat's modprobe (rescue/modprobe.h) is the init under this name
 * (init/multicall.c). The rescue shell's first use links it as
 * LAYOUT_MODPROBE, ahead of busybox's directory in the shell's PATH, and
 * as /sbin/modprobe, where the kernel's request_module runs it
 * (bootlib/shellsetup.c); the generator leaves busybox's applet of that
 * name out of LAYOUT_BUSYBOX_APPLETS. */
#define LAYOUT_INIT "/init"
#define LAYOUT_MODPROBE_NAME "modprobe"
#define LAYOUT_MODPROBE "/usr/sbin/" LAYOUT_MODPROBE_NAME

/* --rescue-auth: root's password hash, one line, mode 0600. */
#define LAYOUT_RESCUE_AUTH "/etc/lifeboat/rescue-auth"
/* The library the init opens (dlopen) to check that password; the
 * generator puts it beside the init's libc. */
#define LAYOUT_LIBCRYPT "libcrypt.so.1"
/* The library the init opens (dlopen) to unpack xz streams (bootlib/unxz.c):
 * the generator adds it only to images that hold such streams. */
#define LAYOUT_LIBLZMA "liblzma.so.5"

/* open-iscsi's login tool, and the initiator name of a host-only image. */
#define LAYOUT_ISCSISTART "/sbin/iscsistart"
#define LAYOUT_ISCSI_INITIATOR "/etc/iscsi/initiatorname.iscsi"

/* An NVMe host's identity (nvme-cli's files), of a host-only image. */
#define LAYOUT_NVME_DIR "/etc/nvme"
#define LAYOUT_NVME_HOSTNQN LAYOUT_NVME_DIR "/hostnqn"
#define LAYOUT_NVME_HOSTID LAYOUT_NVME_DIR "/hostid"

/* The block-stack tools, at their paths on Debian's host. */
#define LAYOUT_CRYPTSETUP "/usr/sbin/cryptsetup"
#define LAYOUT_LVM "/usr/sbin/lvm"
#define LAYOUT_MDADM "/usr/sbin/mdadm"
/* multipath-tools' one-shot grouping and partition mapper (blockstack/mpath.c),
 * and the configuration they read. */
#define LAYOUT_MULTIPATH "/usr/sbin/multipath"
#define LAYOUT_KPARTX "/usr/sbin/kpartx"
#define LAYOUT_MULTIPATH_CONF "/etc/multipath.conf"
#define LAYOUT_MULTIPATH_DIR "/etc/multipath"
/* The clevis unlock helper (clevis/clevis_main.c), when the image has it. */
#define LAYOUT_CLEVIS "/usr/lib/lifeboat/lifeboat-clevis"
/* Present (empty) when the image's clevis bindings may name a Tang server:
 * the init brings the network up before the root's wait. A host whose
 * bindings are tpm2 only gets lifeboat-clevis without it. */
#define LAYOUT_CLEVIS_NET "/etc/lifeboat/clevis-net"
/* What lifeboat-clevis dlopen()s for the tpm2 pin (clevis/tss2fn.c), by
 * soname: the generator adds them to images that may meet one. */
#define LAYOUT_TSS2_ESYS "libtss2-esys.so.0"
#define LAYOUT_TSS2_MU "libtss2-mu.so.0"
#define LAYOUT_TSS2_TCTI_DEVICE "libtss2-tcti-device.so.0"
#define LAYOUT_TSS2_LIBS LAYOUT_TSS2_ESYS, LAYOUT_TSS2_MU, LAYOUT_TSS2_TCTI_DEVICE
/* libcurl, by soname: dlopen()ed by the image's HTTP client
 * (bootlib/curlfn.c) for a Tang server, kdump's URL targets and a live root; the
 * generator adds it (and what it links) to the images that have either. */
#define LAYOUT_LIBCURL "libcurl.so.4"
/* OpenSSL's libcrypto, by soname: dlopen()ed to hash a live root's image
 * (net/live/live_hash.c); the generator adds it to --live images. */
#define LAYOUT_LIBCRYPTO "libcrypto.so.3"
/* A live root (root=live:URL, net/liveroot.c): the image fetched into
 * RAM as LAYOUT_LIVE_IMAGE (a .part name until it is whole and checked),
 * mounted at LAYOUT_LIVE_LOWER under the overlay whose writable layer is
 * the tmpfs at LAYOUT_LIVE_RW; all under /run, so they move with it into
 * the real root. The CA bundle its https:// server is checked against. */
#define LAYOUT_LIVE_DIR "/run/initramfs/live"
#define LAYOUT_LIVE_IMAGE LAYOUT_LIVE_DIR "/rootfs.img"
#define LAYOUT_LIVE_LOWER LAYOUT_LIVE_DIR "/image"
#define LAYOUT_LIVE_RW LAYOUT_LIVE_DIR "/rw"
#define LAYOUT_LIVE_CA "/etc/lifeboat/live-ca.pem"
/* Host-only: the lines of the host's crypttab for the root's containers. */
#define LAYOUT_CRYPTTAB "/etc/crypttab"

/* The way out at shutdown (docs/shutdown.md): lifeboat-shutdown, static,
 * xz'd in the image (most boots do not need it); the init unpacks it to
 * LAYOUT_EXITRD_PROGRAM before switch_root, where systemd's shutdown looks
 * for it, and marks the boot with LAYOUT_EXITRD_NEED (dracut's name for
 * "this boot needs the way out"). */
#define LAYOUT_SHUTDOWN_XZ "/usr/lib/lifeboat/lifeboat-shutdown.xz"
#define LAYOUT_EXITRD_DIR "/run/initramfs"
#define LAYOUT_EXITRD_PROGRAM LAYOUT_EXITRD_DIR "/shutdown"
#define LAYOUT_EXITRD_NEED LAYOUT_EXITRD_DIR "/.need_shutdown"
/* What the last shutdown's way out said, when the next boot found it in
 * pstore (shutdown/lastreport.c); the rescue report includes it. */
#define LAYOUT_LAST_SHUTDOWN "/run/initramfs/last-shutdown.txt"
/* The rescue report (rescue/report.c), and the summary the console showed
 * at a failure (why, and the interfaces or disks that matter for the root
 * asked for): the SSH login (remote/) shows the same. */
#define LAYOUT_RESCUE_REPORT "/run/initramfs/rdsosreport.txt"
#define LAYOUT_RESCUE_SUMMARY "/run/initramfs/rescue-summary.txt"

/* --ssh (docs/remote.md): Debian's dropbear, the image's own host key
 * (dropbear's format, mode 0600), root's authorized keys, and the login
 * program that is root's shell (unlock, report, the shell gate). */
#define LAYOUT_DROPBEAR "/usr/sbin/dropbear"
#define LAYOUT_SSH_HOST_KEY "/etc/lifeboat/ssh_host_ed25519_key"
#define LAYOUT_SSH_AUTHORIZED_KEYS "/root/.ssh/authorized_keys"
#define LAYOUT_SSH_LOGIN "/usr/lib/lifeboat/lifeboat-login"
/* The port when neither --ssh-port nor rd.ssh.port= names one. */
#define LAYOUT_SSH_DEFAULT_PORT 22
/* rd.ssh.port= of --ssh-port, before the kernel's command line. */
#define LAYOUT_CMDLINE_SSH LAYOUT_CMDLINE_DIR "/45-ssh.conf"

#endif
