/* Fuzz target: common/vpd83.c, a disk's VPD page 0x83 as sysfs gives it
 * (the disk's firmware writes it): the WWID fits its buffer, is
 * NUL-terminated, and its length is what is returned. */
#include <stdint.h>
#include <string.h>

#include "common/vpd83.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char wwid[VPD83_WWID_MAX + 1], small[9];
	int n;

	wwid[VPD83_WWID_MAX] = 'x';
	n = vpd83_wwid(data, size, wwid, VPD83_WWID_MAX);
	if (wwid[VPD83_WWID_MAX] != 'x' || (n >= 0 && (n >= VPD83_WWID_MAX || strlen(wwid) != (size_t)n)))
		__builtin_trap();
	n = vpd83_wwid(data, size, small, sizeof(small));
	if (n >= (int)sizeof(small) || (n >= 0 && strlen(small) != (size_t)n))
		__builtin_trap();
	return 0;
}
