/* gen_report: the generator's messages to the user.
 *
 * One error path per failure: the function that knows the file, device or
 * module reports once with gen_error(), naming what failed and what the user
 * can do, and returns -errno; its callers pass the code on without printing
 * again.
 */
#ifndef LIFEBOAT_GEN_REPORT_H
#define LIFEBOAT_GEN_REPORT_H

#include <stdbool.h>

extern bool gen_verbose;

void gen_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gen_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Printed with -v only: what was added and why. */
void gen_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
