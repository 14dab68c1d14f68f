#!/usr/bin/env python3
"""kdump-verify.py DUMP ELFCORE: every page a kdump-compressed DUMP keeps
must equal the same page of the ELF core taken in the same capture run.
Reads the format from its description (header, bitmaps, descriptors,
zlib pages) independently of the C writer. Prints the count of pages
compared; exits non-zero at the first mismatch or if nothing was compared."""
import struct
import sys
import zlib


def elf_loads(f):
    f.seek(0)
    eh = f.read(64)
    if eh[:4] != b"\x7fELF" or eh[4] != 2:
        sys.exit("not a 64-bit ELF core")
    phoff, = struct.unpack_from("<Q", eh, 32)
    phnum, = struct.unpack_from("<H", eh, 56)
    loads = []
    f.seek(phoff)
    for _ in range(phnum):
        p_type, _, off, _, paddr, filesz, memsz, _ = struct.unpack("<IIQQQQQQ", f.read(56))
        if p_type == 1:
            loads.append((paddr, off, filesz, memsz))
    return loads


def elf_page(f, loads, paddr, size):
    page = bytearray(size)
    for start, off, filesz, memsz in loads:
        lo, hi = max(start, paddr), min(start + memsz, paddr + size)
        if lo >= hi:
            continue
        in_file = max(0, min(hi, start + filesz) - lo)
        f.seek(off + lo - start)
        page[lo - paddr:lo - paddr + in_file] = f.read(in_file)
    return bytes(page)


def main():
    dump, core = open(sys.argv[1], "rb"), open(sys.argv[2], "rb")
    head = dump.read(4096)
    if head[:8] != b"KDUMP   ":
        sys.exit("not a kdump-compressed file")
    block, sub, bitmap_blocks = struct.unpack_from("<III", head, 428)
    dump.seek(block + 96)
    max_mapnr, = struct.unpack("<Q", dump.read(8))
    half = bitmap_blocks // 2 * block
    dump.seek((1 + sub) * block + half)
    bitmap2 = dump.read(half)
    descs_at = (1 + sub + bitmap_blocks) * block
    loads = elf_loads(core)
    index = compared = 0
    for pfn in range(max_mapnr):
        if not (bitmap2[pfn // 8] >> (pfn % 8)) & 1:
            continue
        dump.seek(descs_at + index * 24)
        offset, size, flags, _ = struct.unpack("<QIIQ", dump.read(24))
        index += 1
        dump.seek(offset)
        data = dump.read(size)
        page = zlib.decompress(data) if flags & 1 else data
        if page != elf_page(core, loads, pfn * block, block):
            sys.exit("page %#x differs from the ELF core" % pfn)
        compared += 1
    if compared == 0:
        sys.exit("no page compared")
    print("kdump-verify: %d pages equal to the ELF core" % compared)


main()
