/* dumpsink: where the dump's bytes go: a file written in place, or a
 * stream in makedumpfile's flattened format (each piece preceded by its
 * offset and size, big-endian), which needs no seeking. */
#ifndef LIFEBOAT_KDUMP_DUMPSINK_H
#define LIFEBOAT_KDUMP_DUMPSINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLAT_HEADER_SIZE 4096

struct dump_sink {
	int fd;
	bool flat;
	uint64_t bytes;        /* written to fd so far */
};

/* fd -1: a sink that drops everything (for sizing). */
void dump_sink_init(struct dump_sink *s, int fd, bool flat);
/* The flattened stream's leading header; nothing for a file. */
int dump_sink_begin(struct dump_sink *s);
/* Put len bytes at offset off of the dump. Returns 0 or -errno. */
int dump_sink_write(struct dump_sink *s, uint64_t off, const void *buf, size_t len);
/* The flattened stream's end marker; nothing for a file. */
int dump_sink_end(struct dump_sink *s);

/* Encode the header of one flattened record (16 bytes). */
void dump_sink_flat_header(uint8_t out[16], int64_t off, int64_t size);

#endif
