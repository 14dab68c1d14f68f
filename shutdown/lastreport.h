/* lastreport: what the last shutdown's way out did, as the next boot finds
 * it. The way out logs to the kernel log with a fixed prefix
 * (LASTREPORT_PREFIX); where the machine keeps the kernel log of the last
 * boot (pstore: ramoops in RAM across a warm reboot, EFI variables), the
 * next boot's init copies those lines to LAYOUT_LAST_SHUTDOWN and marks
 * the timeline with the last of them (docs/shutdown.md). */
#ifndef LIFEBOAT_SHUTDOWN_LASTREPORT_H
#define LIFEBOAT_SHUTDOWN_LASTREPORT_H

#include <stddef.h>

/* Every message of the way out starts with this, after the kernel's
 * "<level>[time] " (shutdown_main.c sets it as the log's prefix). */
#define LASTREPORT_NAME "lifeboat-shutdown"
#define LASTREPORT_PREFIX LASTREPORT_NAME ": "

/* Append to out (a NUL-terminated string of size bytes, possibly "") each
 * line of text[0..len) that holds LASTREPORT_PREFIX, from the prefix on,
 * with a newline; a line that does not fit is not copied, nor anything
 * after it. Returns how many lines were copied. */
size_t lastreport_extract(const char *text, size_t len, char *out, size_t size);

/* The last line of report (the way out's closing words), into line; "" when
 * report is empty. */
void lastreport_last_line(const char *report, char *line, size_t size);

/* Read every record in pstore_dir (pstore's mount) and write the way
 * out's lines to out_path (mode 0600); last gets the last of them. Returns the number of
 * lines found (0: no pstore, no records or none of the way out's; nothing
 * is written then), or -errno when out_path cannot be written. */
int lastreport_collect(const char *pstore_dir, const char *out_path, char *last, size_t last_size);

/* Where the kernel's pstore filesystem is mounted (lastreport_show_last_boot
 * mounts it there when it is not). */
#define LASTREPORT_PSTORE "/sys/fs/pstore"

/* The next boot's part, called by the init once the drivers asked for by
 * rd.driver.pre (ramoops) are loaded: collect, and when the way out's
 * lines were kept, log its last line and mark the timeline with it
 * ("lastshutdown"), so `lifeboat timeline` shows it. */
void lastreport_show_last_boot(void);

#endif
