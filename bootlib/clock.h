/* clock: the monotonic clock in milliseconds, for the boot's deadlines. */
#ifndef LIFEBOAT_BOOTLIB_CLOCK_H
#define LIFEBOAT_BOOTLIB_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC (time since boot, not changed by setting the date). */
uint64_t clock_now_ms(void);

#endif
