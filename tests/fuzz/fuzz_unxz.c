/* Fuzz target: an image's module as the init decompresses it
 * (bootlib/unxz.c): whatever the bytes, a clean refusal or exactly the
 * size the stream's index records. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bootlib/unxz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-unxz", MFD_CLOEXEC);
	void *out = NULL;
	size_t len = 0;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size && unxz_is_xz(fd) &&
	    unxz_fd(fd, &out, &len) == 0) {
		if (!out || len == 0)
			__builtin_trap();
		free(out);
	}
	close(fd);
	return 0;
}
