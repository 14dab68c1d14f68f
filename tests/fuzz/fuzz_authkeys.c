/* Fuzz target: one line of an authorized_keys file (gen/host/authkeys.c),
 * checked before it goes into an image built with --ssh. */
#include <stdint.h>
#include <string.h>

#include "gen/host/authkeys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct authkey_check ck;

	authkeys_check_line((const char *)data, size, &ck);
	/* A usable line names a key type; what it names stays a string. */
	if (ck.verdict == AUTHKEY_USABLE && !ck.type[0])
		__builtin_trap();
	if (strnlen(ck.type, sizeof(ck.type)) == sizeof(ck.type) ||
	    strnlen(ck.option, sizeof(ck.option)) == sizeof(ck.option))
		__builtin_trap();
	if (ck.verdict == AUTHKEY_UNKNOWN_OPTION && !ck.option[0])
		__builtin_trap();
	return 0;
}
