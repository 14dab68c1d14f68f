/* featuremods: the kernel modules the init loads by name for a feature,
 * which the generator must therefore put in the image.
 *
 * In the image nothing answers the kernel's request_module() (there is no
 * modprobe), so what the kernel or a tool would ask for on its own is
 * loaded by the init first: these lists. Each is string literals to put in
 * an array initializer, so both sides list them in the same order.
 */
#ifndef LIFEBOAT_FEATUREMODS_H
#define LIFEBOAT_FEATUREMODS_H

/* md RAID: the personalities an array's level asks for. */
#define FEATUREMODS_MD_PERSONALITIES "raid1", "raid0", "raid10", "raid456", "linear"

/* LUKS: the ciphers, modes and hashes dm-crypt and cryptsetup ask for by
 * alias (the kernel crypto API and its user-space interface). */
#define FEATUREMODS_LUKS_CRYPTO \
	"aesni_intel", "aes_generic", "xts", "essiv", "cbc", "ecb", \
	"sha256_generic", "sha512_generic", "af_alg", "algif_skcipher", "algif_hash"

/* TPM2: the drivers of the TPM interfaces (TIS on ISA/ACPI, CRB), which
 * make /dev/tpmrm0 for a LUKS2 systemd-tpm2 token. Loaded by name when a
 * container has such a token, whether or not coldplug found the device. */
#define FEATUREMODS_TPM2 "tpm_tis", "tpm_crb"
/* FIDO2: a security key is a USB HID device; libfido2 talks to it through
 * /dev/hidrawN (hidraw is built into Debian's kernel). Loaded by name when
 * a container has a systemd-fido2 token. */
#define FEATUREMODS_FIDO2 "usbhid", "hid_generic"

/* A live root: the loop device, the image's filesystems, the overlay. */
#define FEATUREMODS_LIVE "loop", "squashfs", "overlay"
#define FEATUREMODS_LIVE_OPTIONAL "erofs"

/* NFS: the client; the protocol version's module is asked for at mount. */
#define FEATUREMODS_NFS "sunrpc", "nfs"
#define FEATUREMODS_NFS_V3 "nfsv3"
#define FEATUREMODS_NFS_V4 "nfsv4"

/* vlan=, bond=, bridge=: the kernel asks for each kind's module by
 * request_module("rtnl-link-KIND") as the interface is made. */
#define FEATUREMODS_NET_VLAN "8021q"
#define FEATUREMODS_NET_BOND "bonding"
#define FEATUREMODS_NET_BRIDGE "bridge"
#define FEATUREMODS_NETDEVS FEATUREMODS_NET_VLAN, FEATUREMODS_NET_BOND, FEATUREMODS_NET_BRIDGE

/* iSCSI: crc32c first (iscsi_tcp's digests ask for it by request_module),
 * the transport, and sd_mod so the LUN is a disk. */
#define FEATUREMODS_ISCSI "crc32c", "iscsi_tcp", "sd_mod"
/* Multipath (blockstack/mpath.c loads them before multipath runs: the
 * default path selector is service-time, and a table naming one that is not
 * loaded fails; the SCSI device handlers before the paths are grouped). */
#define FEATUREMODS_MPATH "dm_mod", "dm_multipath", "dm_service_time", "dm_round_robin", \
	"dm_queue_length", "scsi_dh_alua", "scsi_dh_emc", "scsi_dh_rdac"
/* rd.iscsi.firmware: the iBFT table's reader. */
#define FEATUREMODS_ISCSI_FIRMWARE "iscsi_ibft"
/* NVMe over TCP: the transport, which pulls nvme-fabrics and nvme-core;
 * the namespaces are nvme-core's block devices. */
#define FEATUREMODS_NVMF "nvme_tcp"

#endif
