/* modparams: a module's parameters given on the kernel command line
 * (MODULE.PARAM=VALUE), which the kernel applies by itself only to
 * built-in code: for a module loaded later, whoever loads it passes them,
 * as modprobe does. */
#ifndef LIFEBOAT_MODPARAMS_H
#define LIFEBOAT_MODPARAMS_H

/* The words of cmdline that set a parameter of module (names compared
 * with '-' and '_' alike), as init_module(2) options: "PARAM=VALUE PARAM2",
 * a value with a blank in double quotes. *out is malloc'd ("" when there
 * are none). Returns 0 or -ENOMEM. */
int modparams_from_cmdline(const char *cmdline, const char *module, char **out);

#endif
