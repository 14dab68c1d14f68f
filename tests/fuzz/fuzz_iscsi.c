/* fuzz_iscsi: the iSCSI root path (RFC 4173, from the command line or DHCP's
 * root-path) and the choice of target around it, on arbitrary text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/cmdline.h"
#include "net/iscsi_conf.h"
#include "net/rfc4173.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_args args;
	struct iscsi_target t;
	char why[512];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rfc4173_parse(text, &t);
	boot_args_init(&args);
	strcpy(args.netroot, "dhcp");
	strcpy(args.root, "LABEL=root");
	iscsi_conf_wanted(&args);
	iscsi_conf_target(&args, text, &t, why, sizeof(why));
	if (size < sizeof(args.netroot)) {
		strcpy(args.netroot, text);
		iscsi_conf_wanted(&args);
		iscsi_conf_target(&args, NULL, &t, why, sizeof(why));
	}
	free(text);
	return 0;
}
