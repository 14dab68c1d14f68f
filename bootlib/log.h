/* log: the init's messages, to the kernel log with a "lifeboat:" prefix. */
#ifndef LIFEBOAT_LOG_H
#define LIFEBOAT_LOG_H

#include <stdbool.h>

/* rd.debug: also log the debug messages. */
void log_set_debug(bool on);
/* The word before each message: "lifeboat" unless set (the way out sets
 * "lifeboat-shutdown", which the next boot looks for: shutdown/lastreport.h). */
void log_set_prefix(const char *name);
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Text for the person at the console, printed there as it is (no prefix, no
 * log level), for diagnoses that must be read whatever the loglevel is. */
void log_console(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
