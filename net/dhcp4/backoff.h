/* backoff: the retransmission times and transaction ids of the DHCP clients. */
#ifndef LIFEBOAT_NET_BACKOFF_H
#define LIFEBOAT_NET_BACKOFF_H

#include <stdint.h>

struct backoff {
	uint64_t state;
};

/* Seed from getrandom (not blocking: early boot may have no entropy yet),
 * the MAC and the clock, so two machines booting at once differ. */
void backoff_seed(struct backoff *b, const uint8_t mac[6]);
/* A number for xids and jitter: variety, not secrecy. */
uint32_t backoff_random(struct backoff *b);
/* The wait before retransmission number attempt (0 first): 1 s doubling
 * to at most 16 s, each randomised by +-0.5 s. */
unsigned int backoff_ms(struct backoff *b, unsigned int attempt);

#endif
