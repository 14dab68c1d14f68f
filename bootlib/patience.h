/* patience: trying a server again until the step's deadline, for a server
 * that may still be starting (power back in a rack: the machines boot
 * faster than the NFS server, the iSCSI target or the dump server they
 * need). One helper for every such wait: a pause that grows between tries,
 * never past the deadline (rd.timeout=; none: for as long as it takes), and
 * one console line once the wait has been long. */
#ifndef LIFEBOAT_BOOTLIB_PATIENCE_H
#define LIFEBOAT_BOOTLIB_PATIENCE_H

#include <stdbool.h>
#include <stdint.h>

/* The pause after the first failed try, doubling to the cap. */
#define PATIENCE_FIRST_MS 1000
#define PATIENCE_MAX_MS 8000
/* After this long, the console hears once what is still waited for. */
#define PATIENCE_SAY_MS 20000

struct patience {
	const char *what;          /* "the NFS server 198.51.100.1", for the console */
	uint64_t start;            /* clock_now_ms() */
	uint64_t deadline;         /* clock_now_ms() time; 0: none */
	unsigned int tries;        /* failed so far */
	bool said;
};

void patience_start(struct patience *p, const char *what, uint64_t deadline);
/* The pause before try number tries + 1 (0 before the first), so that the
 * try still comes 1 s before the deadline: 0 when no time is left for one. */
unsigned int patience_pause_ms(const struct patience *p);
/* After a failed try (why: what it said, for the console line): count it
 * and wait the pause. Returns false, without waiting, when no time is left
 * for another try: the caller gives up and reports. */
bool patience_wait(struct patience *p, const char *why);

#endif
