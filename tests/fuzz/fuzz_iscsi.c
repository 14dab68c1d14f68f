/* fuzz_iscsi: the iSCSI root path (RFC 4173, from the command line or DHCP's
 * root-path), the choice of target around it, iscsistart's status line, and
 * the iBFT's sysfs attributes, on arbitrary text. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "init/bootargs.h"
#include "init/boot_plan.h"
#include "net/iscsi/ibft.h"
#include "net/iscsi/iscsistart.h"
#include "net/iscsi/rfc4173.h"
#include "net/iscsi_conf.h"

/* The iBFT attributes the input's lines go to, in order. */
static const char *const ibft_files[] = {
	"initiator/initiator-name", "target0/target-name", "target0/ip-addr", "target0/port",
	"target0/chap-name", "target0/chap-secret", "target0/rev-chap-name",
	"target0/rev-chap-secret",
};

static char ibft_dir[64];

static void ibft_tree_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ibft_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_iscsi: could not remove %s\n", ibft_dir);
}

static int ibft_tree(void)
{
	char path[128];

	if (ibft_dir[0])
		return 0;
	/* tmpfs where there is one: the tree is written 8 files a run. */
	snprintf(ibft_dir, sizeof(ibft_dir), "/dev/shm/fuzz-ibft-XXXXXX");
	if (!mkdtemp(ibft_dir)) {
		snprintf(ibft_dir, sizeof(ibft_dir), "/tmp/fuzz-ibft-XXXXXX");
		if (!mkdtemp(ibft_dir))
			return -1;
	}
	atexit(ibft_tree_remove);
	snprintf(path, sizeof(path), "%s/initiator", ibft_dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/target0", ibft_dir);
	mkdir(path, 0700);
	return 0;
}

static void ibft_fuzz(const char *text)
{
	struct iscsi_target t;
	char init[ISCSI_NAME_MAX];

	if (ibft_tree() < 0)
		return;
	for (size_t i = 0; i < sizeof(ibft_files) / sizeof(ibft_files[0]); i++) {
		size_t n = strcspn(text, "\n");
		char path[160];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", ibft_dir, ibft_files[i]);
		f = fopen(path, "w");
		if (f) {
			fwrite(text, 1, n, f);
			fclose(f);
		}
		text += text[n] ? n + 1 : n;
	}
	ibft_read(ibft_dir, &t, init, sizeof(init));
}

/* The text as a command line: several netroot=iscsi: words, rd.iscsi.param=. */
static void portals_fuzz(const char *text)
{
	static struct boot_args args;
	static struct boot_plan plan;
	static struct iscsi_target t[ISCSI_PORTALS_MAX];
	char why[512];

	bootargs_init(&args);
	bootargs_parse(text, NULL, &args);
	boot_plan_make(&args, &plan);
	if (plan.net.iscsi)
		iscsi_conf_portals(&plan.net, t, ISCSI_PORTALS_MAX, why, sizeof(why));
	bootargs_free(&args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_args args;
	static struct boot_plan plan;
	struct iscsi_target t;
	char why[512];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rfc4173_parse(text, &t);
	iscsistart_reported_status(text);
	bootargs_init(&args);
	strcpy(args.net.netroot, "dhcp");
	strcpy(args.root.root, "LABEL=root");
	boot_plan_make(&args, &plan);
	iscsi_conf_target(&plan.net, text, &t, why, sizeof(why));
	if (size < sizeof(args.net.netroot)) {
		strcpy(args.net.netroot, text);
		boot_plan_make(&args, &plan);
		if (plan.net.iscsi)
			iscsi_conf_target(&plan.net, NULL, &t, why, sizeof(why));
	}
	portals_fuzz(text);
	ibft_fuzz(text);
	free(text);
	return 0;
}
