/* sink_codec: what each compressor behind gen/archive/sink.h provides. */
#ifndef LIFEBOAT_SINK_CODEC_H
#define LIFEBOAT_SINK_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/archive/sink.h"

struct sink_codec {
	/* Allocate s->state and write any stream header. */
	int (*open)(struct sink *s);
	int (*write)(struct sink *s, const unsigned char *buf, size_t len);
	/* NULL: stored content is compressed like the rest. */
	int (*set_stored)(struct sink *s, bool stored);
	/* Write the stream's end. */
	int (*finish)(struct sink *s);
	/* Free s->state (finished or not). */
	void (*end)(struct sink *s);
};

extern const struct sink_codec sink_codec_gzip;
extern const struct sink_codec sink_codec_zstd;
extern const struct sink_codec sink_codec_xz;
extern const struct sink_codec sink_codec_lz4;

/* Codecs' compressed output goes through a buffer of this size. */
#define SINK_OUT_SIZE 65536

#endif
