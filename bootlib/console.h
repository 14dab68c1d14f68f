/* console: the terminal behind /dev/console, for the shell and the prompts. */
#ifndef LIFEBOAT_RESCUE_CONSOLE_H
#define LIFEBOAT_RESCUE_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/* The device the kernel's console writes to ("/dev/ttyS0"): the last entry
 * of /sys/class/tty/console/active, the one /dev/console stands for.
 * /dev/console itself cannot become a controlling terminal, so a shell on it
 * would have no job control. Falls back to /dev/console. */
void console_tty_path(char *out, size_t size);
/* Give fd the settings a person typing expects: line editing, echo, CR/LF
 * mapping, ^C/^Z/^\ as signals. The console may come out of the kernel or a
 * crashed program in any state. Returns 0 or -errno. */
int console_make_sane(int fd);
/* Read one line from fd into buf (the newline removed), with echo off when
 * secret. Returns its length, -EIO at end of input, or -errno. */
int console_read_line(int fd, char *buf, size_t size, bool secret);

#endif
