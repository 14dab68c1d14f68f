#!/usr/bin/python3
"""md-super.py: read or mark dirty the md v1.2 superblock of a member disk
image (the host has no md driver to do it through mdadm).

  md-super.py show FILE    prints "events=N resync_offset=N"
  md-super.py dirty FILE   sets resync_offset to 0 (the array was not shut
                           down cleanly, as after a hibernation: a
                           read-write start resyncs it) and fixes sb_csum
  md-super.py data FILE    prints "data_offset=N size=N" in bytes: where the
                           array's data (a RAID1 member holds all of it)
                           starts on the member, and the array's size

Layout (the kernel's struct mdp_superblock_1, little endian), v1.2 at 4 KiB:
0 magic, 80 size (u64, sectors used on each member: a RAID1 array's
size), 128 data_offset (u64, sectors), 144 super_offset, 200 events (u64),
208 resync_offset (u64), 216 sb_csum (u32), 220 max_dev (u32), 256 dev_roles (u16 each).
"""
import struct
import sys

SB_OFFSET = 4096
MAGIC = 0xa92b4efc
ALL_SYNCED = 0xffffffffffffffff


def checksum(sb):
    """The sum of the 32-bit words (sb_csum taken as 0) of the first
    256 + 2 * max_dev bytes, a trailing 16-bit half included, folded once."""
    size = 256 + 2 * struct.unpack_from("<I", sb, 220)[0]
    data = bytearray(sb[:size])
    struct.pack_into("<I", data, 216, 0)
    total = sum(struct.unpack_from("<%dI" % (size // 4), data))
    if size % 4:
        total += struct.unpack_from("<H", data, size - 2)[0]
    return ((total & 0xffffffff) + (total >> 32)) & 0xffffffff


def main():
    op, path = sys.argv[1], sys.argv[2]
    with open(path, "r+b") as f:
        f.seek(SB_OFFSET)
        sb = bytearray(f.read(4096))
        if struct.unpack_from("<I", sb, 0)[0] != MAGIC:
            sys.exit("%s: no md v1.2 superblock at 4 KiB" % path)
        if struct.unpack_from("<I", sb, 216)[0] != checksum(sb):
            sys.exit("%s: the superblock's checksum is wrong" % path)
        events, resync = struct.unpack_from("<QQ", sb, 200)
        if op == "show":
            print("events=%d resync_offset=%s" %
                  (events, "all" if resync == ALL_SYNCED else resync))
        elif op == "data":
            size, = struct.unpack_from("<Q", sb, 80)
            data_offset, = struct.unpack_from("<Q", sb, 128)
            print("data_offset=%d size=%d" % (data_offset * 512, size * 512))
        elif op == "dirty":
            struct.pack_into("<Q", sb, 208, 0)
            struct.pack_into("<I", sb, 216, checksum(sb))
            f.seek(SB_OFFSET)
            f.write(sb)
        else:
            sys.exit("usage: md-super.py show|dirty|data FILE")


main()
