/* fidostate: what softfido keeps across runs, in one state file: the master
 * key that seals credential IDs, the signature counter, the PIN's hash and
 * its retries. A different state file is a different authenticator. */
#ifndef SOFTFIDO_FIDOSTATE_H
#define SOFTFIDO_FIDOSTATE_H

#include <stdint.h>

#define FIDOSTATE_PIN_RETRIES 8

struct fidostate {
	char *path;		/* NULL: kept in memory only (the unit tests) */
	uint8_t master[32];
	uint32_t counter;
	int pin_set;
	uint8_t pin_hash[16];	/* LEFT(SHA-256(PIN), 16) */
	int pin_retries;
};

/* Reads path, or makes a new authenticator there when it does not exist. */
int fidostate_load(struct fidostate *s, const char *path);
/* A fresh authenticator held in memory (path NULL). */
int fidostate_fresh(struct fidostate *s);
/* Writes the state through a temporary file and rename; 0 or -1. */
int fidostate_save(const struct fidostate *s);
void fidostate_free(struct fidostate *s);

#endif
