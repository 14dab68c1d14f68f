/* patience: a growing pause between tries, within a deadline, said once. */
#include "bootlib/patience.h"

#include <unistd.h>

#include "bootlib/clock.h"
#include "bootlib/log.h"

void patience_start(struct patience *p, const char *what, uint64_t deadline)
{
	*p = (struct patience){ .what = what, .start = clock_now_ms(), .deadline = deadline };
}

/* The last try comes this long before the deadline at the latest: the
 * pause never leaves a server that came up meanwhile untried. */
#define LAST_TRY_MS 1000

unsigned int patience_pause_ms(const struct patience *p)
{
	unsigned int ms = PATIENCE_FIRST_MS;
	uint64_t now = clock_now_ms(), left;

	if (!p->tries)
		return 0;
	for (unsigned int i = 1; i < p->tries && ms < PATIENCE_MAX_MS; i++)
		ms *= 2;
	if (ms > PATIENCE_MAX_MS)
		ms = PATIENCE_MAX_MS;
	if (!p->deadline)
		return ms;
	left = p->deadline > now ? p->deadline - now : 0;
	if (left <= LAST_TRY_MS)
		return 0;
	return ms + LAST_TRY_MS > left ? (unsigned int)(left - LAST_TRY_MS) : ms;
}

/* Once, when the wait has been long: nobody is at a rack server's console,
 * but whoever is should know the boot is waiting, not hanging. */
static void say_still_waiting(struct patience *p, const char *why)
{
	uint64_t now = clock_now_ms();

	if (p->said || now - p->start < PATIENCE_SAY_MS)
		return;
	p->said = true;
	if (p->deadline)
		log_console("lifeboat: still waiting for %s (%s); trying again for %u s more "
			    "(rd.timeout=)\n", p->what, why,
			    (unsigned int)((p->deadline > now ? p->deadline - now : 0) / 1000));
	else
		log_console("lifeboat: still waiting for %s (%s); trying again for as long as "
			    "it takes (rd.timeout=0)\n", p->what, why);
}

bool patience_wait(struct patience *p, const char *why)
{
	unsigned int ms;

	p->tries++;
	ms = patience_pause_ms(p);
	if (p->deadline && ms == 0)
		return false;
	say_still_waiting(p, why);
	usleep(ms * 1000u);
	return true;
}
