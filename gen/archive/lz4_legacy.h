/* lz4_legacy: the constants of the lz4 "legacy" format, the only lz4 form
 * the kernel unpacks an initramfs from (lib/decompress_unlz4.c): a 4-byte
 * magic, then chunks, each a 4-byte little-endian compressed size and one
 * LZ4 block of at most 8 MiB of input. There is no end mark: the stream
 * ends with the input, or at a zero size (padding, which kernels since
 * 5.11 accept). */
#ifndef LIFEBOAT_LZ4_LEGACY_H
#define LIFEBOAT_LZ4_LEGACY_H

#define LZ4_LEGACY_MAGIC 0x184C2102u
#define LZ4_LEGACY_CHUNK (8u * 1024 * 1024)

#endif
