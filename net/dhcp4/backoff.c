/* backoff: randomised exponential retransmission (RFC 2131 4.1, RFC 8415 15).
 *
 * Both RFCs start slower (4 s, and 1 s doubling to an hour); a boot waits
 * for the answer and the first normally comes in milliseconds, so the
 * clients start at 1 s and stop doubling at 16 s. */
#include "net/dhcp4/backoff.h"

#include <sys/random.h>

#include "bootlib/clock.h"

#define BACKOFF_FIRST_MS 1000
#define BACKOFF_MAX_MS 16000
#define JITTER_MS 500

/* xorshift64 */
uint32_t backoff_random(struct backoff *b)
{
	b->state ^= b->state << 13;
	b->state ^= b->state >> 7;
	b->state ^= b->state << 17;
	return (uint32_t)(b->state >> 16);
}

void backoff_seed(struct backoff *b, const uint8_t mac[6])
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = 0;
	for (int i = 0; i < 6; i++)
		seed = seed * 131 + mac[i];
	seed ^= clock_now_ms() * 0x9e3779b97f4a7c15ull;
	b->state = seed ? seed : 0x2545f4914f6cdd1dull;
}

unsigned int backoff_ms(struct backoff *b, unsigned int attempt)
{
	unsigned int base = BACKOFF_FIRST_MS << (attempt < 4 ? attempt : 4);

	if (base > BACKOFF_MAX_MS)
		base = BACKOFF_MAX_MS;
	return base - JITTER_MS + backoff_random(b) % (2 * JITTER_MS + 1);
}
