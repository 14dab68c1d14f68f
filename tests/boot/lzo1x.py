"""lzo1x.py: an LZO1X decompressor for the kdump tests, written from the
bitstream's description in the Linux kernel's Documentation/staging/lzo.rst,
so the tests read lifeboat's LZO pages (and makedumpfile -l's) without the
writer's library. decompress(data, size) returns the bytes or raises
ValueError on anything the description does not allow."""


def _length(data, pos, base):
    """A length field that is 0: zero bytes add 255 each, then a byte."""
    extra = 0
    while data[pos] == 0:
        extra += 255
        pos += 1
    return base + extra + data[pos], pos + 1


def _copy_match(out, dist, length):
    if dist <= 0 or dist > len(out):
        raise ValueError("match distance %d outside the %d bytes out" % (dist, len(out)))
    start = len(out) - dist
    for i in range(length):       # may overlap its own output
        out.append(out[start + i])


def decompress(data, size):
    out = bytearray()
    pos, state = 0, 0
    first = data[0]
    if first == 17:
        raise ValueError("lzo-rle bitstream, not LZO1X")
    if first >= 18:
        n = first - 17
        out += data[1:1 + n]
        pos, state = 1 + n, (n if n < 4 else 4)
    while True:
        op = data[pos]
        pos += 1
        if op < 16:
            if state == 0:                       # a long literal run
                n = 3 + op
                if op == 0:
                    n, pos = _length(data, pos, 18)
                out += data[pos:pos + n]
                pos += n
                state = 4
                continue
            h = data[pos]
            pos += 1
            if state < 4:                        # 2 bytes within 1 kB
                length, dist = 2, (h << 2) + (op >> 2 & 3) + 1
            else:                                # 3 bytes at 2..3 kB
                length, dist = 3, (h << 2) + (op >> 2 & 3) + 2049
            s = op & 3
        elif op < 32:                            # 16..48 kB away
            length = 2 + (op & 7)
            if op & 7 == 0:
                length, pos = _length(data, pos, 9)
            d = data[pos] | data[pos + 1] << 8
            pos += 2
            dist = 16384 + ((op >> 3 & 1) << 14) + (d >> 2)
            s = d & 3
            if dist == 16384:                    # the end of the stream
                if len(out) != size:
                    raise ValueError("%d bytes out, %d expected" % (len(out), size))
                return bytes(out)
        elif op < 64:                            # within 16 kB
            length = 2 + (op & 31)
            if op & 31 == 0:
                length, pos = _length(data, pos, 33)
            d = data[pos] | data[pos + 1] << 8
            pos += 2
            dist, s = (d >> 2) + 1, d & 3
        else:                                    # 3..8 bytes within 2 kB
            length = (3 + (op >> 5 & 1)) if op < 128 else (5 + (op >> 5 & 3))
            dist = (data[pos] << 3) + (op >> 2 & 7) + 1
            pos += 1
            s = op & 3
        _copy_match(out, dist, length)
        out += data[pos:pos + s]
        pos += s
        state = s
        if len(out) > size:
            raise ValueError("more than %d bytes out" % size)
