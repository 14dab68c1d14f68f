#!/usr/bin/env python3
"""kdump-verify.py DUMP ELFCORE [DUMP2]: the two filtered outputs of one
capture run agree page by page.

- every page the kdump-compressed DUMP keeps is in ELFCORE's PT_LOADs and
  byte-identical there;
- every whole page ELFCORE has that DUMP does not keep is all zeros (a
  short run of left out pages inside a segment); none is counted as kept;
- with DUMP2 (makedumpfile's own -d dump of ELFCORE): it keeps exactly the
  pages DUMP keeps, with the same bytes, so the filter agrees with
  makedumpfile's and the ELF file lost nothing makedumpfile would keep.

Reads both formats from their descriptions (header, bitmaps, descriptors,
zlib or LZO pages (lzo1x.py); ELF program headers) independently of the C
writers. Prints
the counts; exits non-zero at the first mismatch or if nothing compared."""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzo1x  # noqa: E402


class KdumpFile:
    def __init__(self, path):
        self.f = open(path, "rb")
        head = self.f.read(4096)
        if head[:8] != b"KDUMP   ":
            sys.exit("%s: not a kdump-compressed file" % path)
        self.status, self.block, sub, bitmap_blocks = struct.unpack_from("<IIII", head, 424)
        self.flags = {}
        self.f.seek(self.block + 96)
        self.max_mapnr, = struct.unpack("<Q", self.f.read(8))
        half = bitmap_blocks // 2 * self.block
        self.f.seek((1 + sub) * self.block + half)
        self.bitmap2 = self.f.read(half)
        self.descs_at = (1 + sub + bitmap_blocks) * self.block

    def kept(self):
        """The pfns of the second bitmap, in order, with their index."""
        index = 0
        for pfn in range(self.max_mapnr):
            if (self.bitmap2[pfn // 8] >> (pfn % 8)) & 1:
                yield pfn, index
                index += 1

    def page(self, index):
        self.f.seek(self.descs_at + index * 24)
        offset, size, flags, _ = struct.unpack("<QIIQ", self.f.read(24))
        self.f.seek(offset)
        data = self.f.read(size)
        self.flags[flags] = self.flags.get(flags, 0) + 1
        if flags & 1:
            return zlib.decompress(data)
        if flags & 2:
            return lzo1x.decompress(data, self.block)
        return data


class ElfCore:
    def __init__(self, path, block):
        self.f = open(path, "rb")
        self.block = block
        eh = self.f.read(64)
        if eh[:4] != b"\x7fELF" or eh[4] != 2:
            sys.exit("%s: not a 64-bit ELF core" % path)
        phoff, = struct.unpack_from("<Q", eh, 32)
        phnum, = struct.unpack_from("<H", eh, 56)
        self.loads = []
        self.f.seek(phoff)
        for _ in range(phnum):
            p_type, _, off, _, paddr, filesz, memsz, _ = struct.unpack("<IIQQQQQQ", self.f.read(56))
            if p_type == 1:
                self.loads.append((paddr, off, filesz, memsz))
        # Whole pages in the file: pfn -> offset (the first range that has it).
        self.whole = {}
        for paddr, off, filesz, _ in self.loads:
            first = -(-paddr // block)
            for pfn in range(first, (paddr + filesz) // block):
                self.whole.setdefault(pfn, off + pfn * block - paddr)

    def page(self, pfn):
        """The page's bytes and how many of them the file has."""
        paddr, size = pfn * self.block, self.block
        if pfn in self.whole:
            self.f.seek(self.whole[pfn])
            return self.f.read(size), size
        page, covered = bytearray(size), 0
        for start, off, filesz, _ in self.loads:
            lo, hi = max(start, paddr), min(start + filesz, paddr + size)
            if lo < hi:
                self.f.seek(off + lo - start)
                page[lo - paddr:hi - paddr] = self.f.read(hi - lo)
                covered += hi - lo
        return bytes(page), covered


def main():
    dump = KdumpFile(sys.argv[1])
    core = ElfCore(sys.argv[2], dump.block)
    kept = set()
    for pfn, index in dump.kept():
        page, covered = core.page(pfn)
        if covered == 0:
            sys.exit("page %#x is kept in the dump but not in the ELF file" % pfn)
        if page != dump.page(index):
            sys.exit("page %#x differs between the dump and the ELF file" % pfn)
        kept.add(pfn)
    if not kept:
        sys.exit("no page compared")
    zeros = bytes(dump.block)
    extra = [pfn for pfn in core.whole if pfn not in kept]
    for pfn in extra:
        if core.page(pfn)[0] != zeros:
            sys.exit("page %#x is in the ELF file with data but not kept in the dump" % pfn)
    print("kdump-verify: %d kept pages equal in the dump and the ELF file (%d segments); "
          "%d pages in the ELF file not kept, all zeros" % (len(kept), len(core.loads), len(extra)))
    print("kdump-verify: header status %#x; descriptors by flag: %s" % (
        dump.status, ", ".join("%#x: %d" % kv for kv in sorted(dump.flags.items()))))
    if len(sys.argv) > 3:
        other = KdumpFile(sys.argv[3])
        count = 0
        for pfn, index in other.kept():
            if pfn not in kept:
                sys.exit("page %#x is kept by %s but not by the dump" % (pfn, sys.argv[3]))
            if other.page(index) != core.page(pfn)[0]:
                sys.exit("page %#x differs in %s" % (pfn, sys.argv[3]))
            count += 1
        if count != len(kept):
            sys.exit("%s keeps %d pages, the dump %d" % (sys.argv[3], count, len(kept)))
        print("kdump-verify: %s keeps the same %d pages with the same bytes" % (sys.argv[3], count))


main()
