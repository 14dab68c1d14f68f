/* kernel_rd: whether the image's kernel can unpack an initramfs compressed
 * the chosen way, from its build configuration (CONFIG_RD_GZIP, _ZSTD, _XZ,
 * _LZ4: the decompressors the kernel was built with). */
#ifndef LIFEBOAT_KERNEL_RD_H
#define LIFEBOAT_KERNEL_RD_H

#include <stddef.h>

#include <stdbool.h>

#include "gen/archive/sink.h"

/* The kernel's config file: MODDIR/config, MODDIR/build/.config (a tree
 * built from source) or BOOTDIR/config-KVER, the first that exists. */
int kernel_config_find(const char *kver, const char *moddir, const char *bootdir,
		       char *out, size_t size);

/* 1 if the config file sets option=y, 0 if not (unset, "is not set" or
 * =m), -errno if it cannot be read. */
int kernel_config_is_y(const char *config, const char *option);

/* Refuse (a message, -ENOTSUP) an image the kernel kver cannot unpack;
 * without a config file, say the choice is unchecked and go on. */
int kernel_rd_check(enum sink_format f, const char *kver, const char *moddir,
		    const char *bootdir);

/* The default: lz4, or when the kernel's config lacks it the next it has
 * (gzip, zstd, else none); gzip when there is no config to ask. For a
 * capture image (capture), gzip first: see kernel_rd.c. */
/* The order kernel_rd_default tries, into order (at most size): for
 * lifeboat build --help. Returns how many. */
size_t kernel_rd_order(bool capture, enum sink_format *order, size_t size);

enum sink_format kernel_rd_default(const char *kver, const char *moddir, const char *bootdir,
				   bool capture);

#endif
