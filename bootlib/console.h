/* console: the terminal behind /dev/console, for the shell and the prompts. */
#ifndef LIFEBOAT_RESCUE_CONSOLE_H
#define LIFEBOAT_RESCUE_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bootlib/plyask.h"

/* The consoles a prompt is shown on: /sys/class/tty/console/active names
 * a few (console=ttyS0 console=tty0); more are not worth a prompt. */
#define CONSOLE_MAX 4
#define CONSOLE_NAME_MAX 32
/* Remote logins answering the same prompt (bootlib/guest.h). */
#define CONSOLE_GUESTS_MAX 2
#define CONSOLE_SEATS (CONSOLE_MAX + CONSOLE_GUESTS_MAX)
/* What a prompt printed last, shown to a guest that joins later. */
#define CONSOLE_SAID_MAX 1024

struct console_set {
	int fd[CONSOLE_SEATS];
	char path[CONSOLE_SEATS][CONSOLE_NAME_MAX + 8];
	bool guest[CONSOLE_SEATS];   /* a remote login's socket, not a terminal */
	size_t n;
	bool guests;                 /* listen_fd is open (console_take_guests) */
	int listen_fd;
	char guest_path[108];        /* its socket */
	char said[CONSOLE_SAID_MAX];
	/* When a prompt gives up (CLOCK_MONOTONIC ms, bootlib/clock.h; 0: it
	 * waits for ever): where nobody may be there to answer (a capture
	 * kernel), the caller sets it after console_open_all. */
	uint64_t deadline_ms;
	/* An fd whose readiness ends the wait for an answer (work done in the
	 * background while the prompt is up: it may make the answer
	 * needless); the caller sets it after console_open_all. 0 or -1:
	 * none (fd 0 is the console's, never such a pipe; a zeroed set
	 * watches nothing). */
	int wake_fd;
	/* plymouthd ran when the set was opened (bootlib/splash.h): a secret
	 * is asked through it too, and the consoles it reads keys on are
	 * left to it. */
	bool splash;
	struct plyask ask;
};

/* Split the content of /sys/class/tty/console/active ("tty0 ttyS0\n")
 * into device names, in order, each a plain name ([A-Za-z0-9_] only, so it
 * stays a name under /dev). Returns how many were stored (at most max);
 * malformed words are skipped. */
size_t console_active_parse(const char *text, char names[][CONSOLE_NAME_MAX], size_t max);

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
 * secret, serving kernel events meanwhile (bootlib/evloop.h). Returns its
 * length, -EIO at end of input, or -errno. */
int console_read_line(int fd, char *buf, size_t size, bool secret);

/* A prompt on every active console: open each (sane settings) and take
 * the console for the prompt (evloop_prompt_begin: keyboards present get
 * their drivers first). Falls back to /dev/console. When plymouthd runs,
 * the consoles it reads its keys on (splash_owns_console) are not opened:
 * two readers of one terminal would each get some of the keys, and sane
 * settings would break its raw mode; a secret is then asked through
 * plymouth too (console_read_answer). Returns 0, or -errno when none can
 * be opened and plymouth does not run (the prompt is then not taken). */
int console_open_all(struct console_set *set);
/* Let remote logins answer this prompt too, when the SSH server runs
 * (bootlib/guest.h), on the socket at path (GUEST_SOCKET): the first
 * answer from a console or a guest wins. */
void console_take_guests(struct console_set *set, const char *path);
/* Print on every console of the set. */
void console_printf_all(struct console_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Read the first line typed on any console of the set, as
 * console_read_line does; the others' unfinished input is discarded. A
 * secret is also asked through plymouth when it ran at console_open_all
 * (bootlib/plyask.h), with what the set printed last as its prompt; the
 * first answer wins, the others' prompts are withdrawn.
 * *which (when not NULL) gets the index of the console that answered. A
 * console that ends its input is dropped. Returns the length, -EIO when
 * every console gave out, -ETIMEDOUT when set->deadline_ms passed,
 * -ECANCELED when set->wake_fd became readable (or hung up) first, or
 * -errno. */
int console_read_answer(struct console_set *set, char *buf, size_t size, bool secret,
			size_t *which);
/* Close the set (its guests too) and give the console back (evloop_prompt_end). */
void console_close_all(struct console_set *set);

#endif
