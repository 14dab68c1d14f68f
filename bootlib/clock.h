/* clock: the monotonic clock in milliseconds, for the boot's deadlines. */
#ifndef LIFEBOAT_BOOTLIB_CLOCK_H
#define LIFEBOAT_BOOTLIB_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC (time since boot, not changed by setting the date). */
uint64_t clock_now_ms(void);

/* The deadline sec seconds after now (clock_now_ms() time), or 0 (none)
 * when sec is 0: a bound like rd.timeout=, where 0 means forever. */
uint64_t clock_deadline(uint64_t now, unsigned int sec);
/* How long a wait whose own bound is cap_ms may take before deadline (0:
 * none): cap_ms, or what is left when the deadline comes first, 0 once it
 * has passed. The waits inside a step bounded by rd.timeout= each keep
 * their own bound (rd.net.timeout.*) and end with the step's. */
unsigned int clock_clamp_ms(uint64_t deadline, uint64_t now, unsigned int cap_ms);
/* What is left of deadline as a wait in whole seconds for a wait that reads
 * 0 as forever: 0 when there is no deadline, else at least 1 (the wait
 * still looks once, then ends), rounded up. */
unsigned int clock_left_sec(uint64_t deadline, uint64_t now);

#endif
