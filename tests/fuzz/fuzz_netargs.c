/* fuzz_netargs: ip= (IPv4 and IPv6 forms), root=nfs:/nfsroot= parsers and the mount options made
 * from them, on arbitrary text. */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/config/ipparam.h"
#include "net/nfs/nfsspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ip_param ipc;
	struct nfs_spec spec;
	char opts[512], path[512], server[64];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ip_param_parse(text, &ipc);
	nfs_spec_is_nfs_root(text);
	if (nfs_spec_parse(text, &spec) == 0) {
		nfs_spec_mount_data(&spec, "198.51.100.11", opts, sizeof(opts), path, sizeof(path));
		nfs_spec_server_text(&spec, true, server, sizeof(server));
	}
	if (nfs_spec_parse_nfsroot(text, &spec) == 0)
		nfs_spec_mount_data(&spec, "2001:db8::11", opts, sizeof(opts), path, sizeof(path));
	free(text);
	return 0;
}
