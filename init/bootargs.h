/* bootargs: the boot's command line, gathered from the image and from the
 * kernel, each word into the struct of the component that declares it. */
#ifndef LIFEBOAT_BOOTARGS_H
#define LIFEBOAT_BOOTARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "blockstack/stack_params.h"
#include "bootlib/cmdline.h"
#include "bootlib/driver_args.h"
#include "bootlib/hook_args.h"
#include "bootlib/rescue_args.h"
#include "bootlib/vconsole_args.h"
#include "common/layout.h"
#include "fsck/fsck_args.h"
#include "init/root_args.h"
#include "net/iscsi_args.h"
#include "net/live_args.h"
#include "net/net_args.h"
#include "net/nvmf_args.h"
#include "remote/remote_args.h"
#include "resume/resume_args.h"

#define CMDLINE_D LAYOUT_CMDLINE_DIR

/* Each component is given only its own part: the iSCSI credentials reach
 * net/'s login and nothing else. */
struct boot_args {
	struct root_args root;
	struct resume_args resume;
	struct rescue_args rescue;
	struct net_args net;
	struct iscsi_args iscsi;
	struct nvmf_args nvmf;
	struct live_args live;
	struct remote_args remote;
	struct driver_args drivers;
	struct vconsole_args vconsole;
	struct stack_params stacks;
	struct hook_args hooks;
	enum fsck_mode fsck;
	bool debug;                   /* rd.debug */
};

/* Every component's defaults. */
void bootargs_init(struct boot_args *args);
void bootargs_free(struct boot_args *args);
/* The components' word tables over args, into owners (BOOTARGS_OWNERS of them). */
#define BOOTARGS_OWNERS 14
void bootargs_owners(struct boot_args *args, struct cmdline_owner owners[BOOTARGS_OWNERS]);
/* Apply one command line (source names it in messages); see cmdline_parse. */
int bootargs_parse(const char *line, const char *source, struct boot_args *args);
/* Apply /etc/cmdline.d/STAR.conf (built in with lifeboat build --cmdline), in
 * name order, then /proc/cmdline, so the kernel's command line wins.
 * Returns the first parse error (already logged) or 0. */
int bootargs_load(struct boot_args *args);
/* The kernel hands the parameters it does not know and that hold no dot
 * (netroot=...) to init's environment, which the real init inherits: those
 * holding a secret (common/redact.h) are removed. bootargs_load does it. */
void bootargs_environ_clean(void);

#endif
