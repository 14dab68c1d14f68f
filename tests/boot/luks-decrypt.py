#!/usr/bin/env python3
"""luks-decrypt.py IMAGE VOLUME-KEY-FILE OUT: the plaintext of a LUKS2
container's data segment (aes-xts-plain64), as dm-crypt would show it, into
OUT, so that a test on a host without device-mapper can read the filesystem
inside (debugfs). The volume key comes from `cryptsetup luksDump
--dump-volume-key`, the segment's offset, sector size and IV tweak from
`cryptsetup luksDump --dump-json-metadata` on stdin. Holes of IMAGE (never
written: nothing the guest put there) stay holes of OUT.

dm-crypt's plain64 IV is the sector number, little-endian, counted in
512-byte units, or in the segment's sector size when that is larger
(LUKS2 sets dm-crypt's iv_large_sectors then), plus iv_tweak."""
import json
import os
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def data_ranges(fd, start, end):
    """The (begin, end) ranges of fd between start and end that hold data."""
    pos = start
    while pos < end:
        try:
            begin = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:
            return
        if begin >= end:
            return
        stop = min(os.lseek(fd, begin, os.SEEK_HOLE), end)
        yield begin, stop
        pos = stop


def main():
    image, key_file, out = sys.argv[1:4]
    segment = json.load(sys.stdin)["segments"]["0"]
    if segment["encryption"] != "aes-xts-plain64":
        sys.exit("luks-decrypt: cipher %s is not aes-xts-plain64" % segment["encryption"])
    offset = int(segment["offset"])
    sector = int(segment["sector_size"])
    tweak = int(segment.get("iv_tweak", "0"))
    iv_unit = sector if sector > 512 else 512
    with open(key_file, "rb") as f:
        key = f.read()
    src = os.open(image, os.O_RDONLY)
    end = os.fstat(src).st_size
    with open(out, "wb") as dst:
        dst.truncate(end - offset)
        for begin, stop in data_ranges(src, offset, end):
            begin -= (begin - offset) % sector
            data = os.pread(src, stop - begin, begin)
            dst.seek(begin - offset)
            for i in range(0, len(data) - sector + 1, sector):
                iv = ((begin - offset + i) // iv_unit + tweak).to_bytes(16, "little")
                dec = Cipher(algorithms.AES(key), modes.XTS(iv)).decryptor()
                dst.write(dec.update(data[i:i + sector]) + dec.finalize())
    os.close(src)


main()
