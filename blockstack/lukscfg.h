/* lukscfg: the image's /etc/crypttab, read into the block-stack parameters. */
#ifndef LIFEBOAT_BLOCKSTACK_LUKSCFG_H
#define LIFEBOAT_BLOCKSTACK_LUKSCFG_H

#include "blockstack/stack_params.h"
#include "common/layout.h"

#define IMAGE_CRYPTTAB LAYOUT_CRYPTTAB

/* After the command line is applied to p: read the image's crypttab
 * (host-only images carry the host's lines for the root's and the resume
 * device's containers, gen/host/stackconf.c) unless rd.luks.crypttab=0, and log
 * once for each options list (crypttab's, rd.luks.options=) what of it is
 * not acted on, naming the option and the container. */
void lukscfg_load(struct stack_params *p);

#endif
