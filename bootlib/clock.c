/* clock: the monotonic clock in milliseconds, for the boot's deadlines. */
#include "bootlib/clock.h"

#include <time.h>

uint64_t clock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t clock_deadline(uint64_t now, unsigned int sec)
{
	return sec ? now + (uint64_t)sec * 1000 : 0;
}

unsigned int clock_clamp_ms(uint64_t deadline, uint64_t now, unsigned int cap_ms)
{
	if (!deadline)
		return cap_ms;
	if (now >= deadline)
		return 0;
	return deadline - now < cap_ms ? (unsigned int)(deadline - now) : cap_ms;
}

unsigned int clock_left_sec(uint64_t deadline, uint64_t now)
{
	uint64_t left;

	if (!deadline)
		return 0;
	left = now < deadline ? (deadline - now + 999) / 1000 : 0;
	return left ? (unsigned int)left : 1;
}
