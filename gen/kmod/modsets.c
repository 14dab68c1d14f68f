/* modsets: which modules make up the generic set (a boot on any machine).
 *
 * Like initramfs-tools' MODULES=most, but lean: every storage controller,
 * block-stack and filesystem driver, virtio, and the keyboards a rescue shell
 * needs. No network, sound or graphics drivers: they are large and no local
 * root needs them. Dependencies and softdeps come with libkmod. */
#include "gen/kmod/modsets.h"

#include "common/featuremods.h"

#include <string.h>

/* Trees included whole: a prefix of the path under the module directory. */
static const char *const generic_trees[] = {
	"kernel/drivers/ata/",
	"kernel/drivers/scsi/",
	"kernel/drivers/nvme/host/",
	"kernel/drivers/block/",
	"kernel/drivers/md/",
	"kernel/drivers/nvdimm/",
	"kernel/drivers/cdrom/",
	"kernel/drivers/virtio/",
	"kernel/drivers/mmc/",
	"kernel/drivers/memstick/",
	"kernel/drivers/usb/storage/",
	"kernel/drivers/usb/host/",
	"kernel/drivers/hid/usbhid/",
	"kernel/drivers/hid/i2c-hid/",
	"kernel/drivers/input/keyboard/",
	"kernel/drivers/input/serio/",
	"kernel/fs/",
	"kernel/lib/crc",
	NULL,
};

/* Parts of those trees left out: network and cluster storage that pulls in
 * network drivers or needs a network the init does not set up for them,
 * and test drivers. */
static const char *const generic_excluded[] = {
	"kernel/drivers/scsi/fcoe/",
	"kernel/drivers/scsi/bnx2fc/",
	"kernel/drivers/scsi/bnx2i/",
	"kernel/drivers/scsi/be2iscsi/",
	"kernel/drivers/scsi/cxgbi/",
	"kernel/drivers/scsi/qedf/",
	"kernel/drivers/scsi/qedi/",
	"kernel/drivers/scsi/csiostor/",
	"kernel/drivers/scsi/scsi_debug.",
	/* No root lives on a floppy, and probing an absent controller's
	 * drive costs boot time on every PC-like VM (PNP0700). */
	"kernel/drivers/block/floppy.",
	"kernel/drivers/block/drbd/",
	"kernel/drivers/block/rbd.",
	"kernel/fs/afs/",
	"kernel/fs/ceph/",
	"kernel/fs/coda/",
	"kernel/fs/dlm/",
	"kernel/fs/gfs2/",
	"kernel/fs/lockd/",
	"kernel/fs/nfs/",
	"kernel/fs/nfs_common/",
	"kernel/fs/nfsd/",
	"kernel/fs/ocfs2/",
	"kernel/fs/orangefs/",
	"kernel/fs/smb/",
	"kernel/fs/cifs/",
	"kernel/fs/ksmbd/",
	/* Filesystems no Linux root lives on (foreign, obsolete, flash-only,
	 * or mounted only by the running system), left out so every boot of a
	 * generic image does not unpack them. */
	"kernel/fs/adfs/", "kernel/fs/affs/", "kernel/fs/autofs/", "kernel/fs/befs/",
	"kernel/fs/bfs/", "kernel/fs/binfmt_misc.", "kernel/fs/cachefiles/",
	"kernel/fs/configfs/", "kernel/fs/ecryptfs/", "kernel/fs/efivarfs/",
	"kernel/fs/efs/", "kernel/fs/exfat/", "kernel/fs/freevxfs/", "kernel/fs/fscache/",
	"kernel/fs/hfs/", "kernel/fs/hfsplus/", "kernel/fs/hpfs/", "kernel/fs/jffs2/",
	"kernel/fs/minix/", "kernel/fs/netfs/", "kernel/fs/omfs/", "kernel/fs/pstore/",
	"kernel/fs/qnx4/", "kernel/fs/qnx6/", "kernel/fs/romfs/", "kernel/fs/sysv/",
	"kernel/fs/ubifs/", "kernel/fs/ufs/", "kernel/fs/vboxsf/", "kernel/fs/zonefs/",
	/* The storage-serving side (SCSI and NVMe targets) and NVMe over
	 * RDMA/TCP, which are network roots (ib_core alone is 1.5 MB). */
	"kernel/drivers/scsi/qla2xxx/tcm_qla2xxx.",
	"kernel/drivers/nvme/host/nvme-rdma.",
	"kernel/drivers/nvme/host/nvme-tcp.",
	NULL,
};

const char *const modsets_generic_names[] = {
	/* keyboards for the prompts and the rescue shell (docs/input.md): USB
	 * HID, I2C HID behind a laptop's DesignWare/LPSS controller, Hyper-V,
	 * virtio input */
	"hid", "hid_generic", "hid_apple", "hid_cherry", "hid_lenovo", "hid_logitech",
	"hid_logitech_dj", "hid_logitech_hidpp", "hid_microsoft", "hid_asus",
	"usbhid", "i2c_hid_acpi", "i2c_designware_pci", "intel_lpss_pci", "intel_lpss_acpi",
	"hid_hyperv", "hyperv_keyboard", "virtio_input",
	/* controllers and buses storage sits behind */
	"vmd", "hv_vmbus", "xen_blkfront", "virtio_console", "9pnet_virtio",
	/* checksums and ciphers filesystems and dm-crypt ask for by alias */
	"libcrc32c", "crc32c_generic", "crc32c_intel", "crc32_pclmul",
	"crct10dif_generic", "crct10dif_pclmul", "xxhash_generic", "blake2b_generic",
	FEATUREMODS_LUKS_CRYPTO,
	NULL,
};

static bool prefix_in(const char *const *table, const char *s)
{
	for (size_t i = 0; table[i]; i++)
		if (strncmp(s, table[i], strlen(table[i])) == 0)
			return true;
	return false;
}

bool modsets_generic_path(const char *relpath)
{
	return prefix_in(generic_trees, relpath) && !prefix_in(generic_excluded, relpath);
}

bool modsets_generic_name(const char *name)
{
	for (size_t i = 0; modsets_generic_names[i]; i++)
		if (strcmp(modsets_generic_names[i], name) == 0)
			return true;
	return false;
}
