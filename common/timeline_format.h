/* timeline_format: the boot timeline the init writes (bootlib/timeline.c)
 * and `lifeboat timeline` reads (gen/cmd/timeline_read.c).
 *
 * One line a phase:
 *     SECONDS PHASE [DETAIL]
 * SECONDS is CLOCK_MONOTONIC (time since boot, as in the kernel log) with
 * microseconds (a reader accepts up to 9 fraction digits); PHASE is one word
 * of letters, digits, '_', '-', '.'; DETAIL is free text to the end of the
 * line. Phases of a normal boot: start, modules, rootdev, mounted, exec.
 * The file is under /run, which moves into the real root at switch_root,
 * so it stays readable there after the boot.
 */
#ifndef LIFEBOAT_TIMELINE_FORMAT_H
#define LIFEBOAT_TIMELINE_FORMAT_H

#define TIMELINE_FORMAT_PATH "/run/initramfs/timeline"

#endif
