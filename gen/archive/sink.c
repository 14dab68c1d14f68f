/* sink: write archive bytes to a file descriptor, raw or through a codec. */
#include "gen/archive/sink.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/filewrite.h"
#include "gen/archive/sink_codec.h"

static const struct {
	const char *name;
	const char *kconfig;
	const struct sink_codec *codec;
} formats[SINK_FORMAT_COUNT] = {
	[SINK_GZIP] = { "gzip", "CONFIG_RD_GZIP", &sink_codec_gzip },
	[SINK_NONE] = { "none", NULL, NULL },
	[SINK_ZSTD] = { "zstd", "CONFIG_RD_ZSTD", &sink_codec_zstd },
	[SINK_XZ] = { "xz", "CONFIG_RD_XZ", &sink_codec_xz },
	[SINK_LZ4] = { "lz4", "CONFIG_RD_LZ4", &sink_codec_lz4 },
};

const char *sink_format_name(enum sink_format f)
{
	return (unsigned)f < SINK_FORMAT_COUNT ? formats[f].name : "?";
}

int sink_format_parse(const char *name, enum sink_format *f)
{
	for (unsigned i = 0; i < SINK_FORMAT_COUNT; i++)
		if (strcmp(name, formats[i].name) == 0) {
			*f = (enum sink_format)i;
			return 0;
		}
	return -EINVAL;
}

const char *sink_format_kconfig(enum sink_format f)
{
	return (unsigned)f < SINK_FORMAT_COUNT ? formats[f].kconfig : NULL;
}

int sink_open(struct sink *s, int fd, enum sink_format f)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	if ((unsigned)f >= SINK_FORMAT_COUNT)
		return -EINVAL;
	s->codec = formats[f].codec;
	if (!s->codec)
		return 0;
	int err = s->codec->open(s);

	if (err < 0)
		sink_abort(s);
	return err;
}

int sink_write(struct sink *s, const void *buf, size_t len)
{
	s->offset += len;
	if (!s->codec)
		return file_write_fd(s->fd, buf, len);
	return s->codec->write(s, buf, len);
}

int sink_set_stored(struct sink *s, bool stored)
{
	if (!s->codec || !s->codec->set_stored || s->stored == stored)
		return 0;
	int err = s->codec->set_stored(s, stored);

	if (err == 0)
		s->stored = stored;
	return err;
}

int sink_zeros(struct sink *s, size_t len)
{
	static const unsigned char zeros[512];

	while (len > 0) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);
		int err = sink_write(s, zeros, n);

		if (err < 0)
			return err;
		len -= n;
	}
	return 0;
}

int sink_finish(struct sink *s)
{
	int err;

	if (!s->codec)
		return 0;
	err = s->codec->finish(s);
	sink_abort(s);
	return err;
}

void sink_abort(struct sink *s)
{
	if (s->codec && s->state)
		s->codec->end(s);
	s->codec = NULL;
	s->state = NULL;
}
