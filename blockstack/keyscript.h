/* keyscript: open a LUKS container with the key its crypttab keyscript=
 * prints (Debian's cryptsetup-initramfs contract, crypttab(5)).
 *
 * The program runs as the init's child, in its own process group, with
 * the key field as its argument and the line's fields in its environment
 * (blockstack/keyscript_env.h); the console is its stdin and stderr (so
 * askpass can prompt there), its stdout a pipe read into locked memory
 * that is wiped once cryptsetup had the key; the key is never logged.
 * While it runs the init keeps serving kernel events (passdev waits for
 * its key device to appear) and other prompts queue behind it.
 *
 * A key that does not open the container, or a run that prints none
 * (whatever its exit status), is a try: the program runs again with
 * CRYPTTAB_TRIED one more, up to crypttab's tries= (3 by default; 0: until
 * the bound). The bound is the shorter of rd.timeout= and the container's
 * prompt bound (timeout=, rd.luks.timeout=, a capture kernel's); then the
 * program and what it started are killed.
 */
#ifndef LIFEBOAT_BLOCKSTACK_KEYSCRIPT_H
#define LIFEBOAT_BLOCKSTACK_KEYSCRIPT_H

#include "blockstack/luks.h"
#include "blockstack/stack_params.h"

/* Open c with its options' keyscript (c->opts->keyscript). Returns 0, or
 * -EACCES when no try gave a key that opens it, -ETIMEDOUT at the bound,
 * -ENOENT when the program is not in the image, or another -errno; each
 * is said on the console and in the log, naming the container and the
 * program. */
int keyscript_open(const struct stack_params *p, const struct luks_container *c);

#endif
