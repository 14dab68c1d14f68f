/* failure: the diagnosis printed when the boot cannot go on. */
#ifndef LIFEBOAT_FAILURE_H
#define LIFEBOAT_FAILURE_H

/* The boot cannot continue: print what failed and what to try, then power
 * off after a few seconds (until the rescue shell takes this over). */
void failure_poweroff(const char *what) __attribute__((noreturn));

#endif
