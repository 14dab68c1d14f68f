/* lukscfg: read the image's crypttab; warn once about options left undone. */
#include "blockstack/lukscfg.h"

#include <errno.h>
#include <stdio.h>

#include "bootlib/log.h"

static void crypttab_read(struct stack_params *p)
{
	FILE *f = fopen(IMAGE_CRYPTTAB, "re");
	char line[1024];
	int n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct crypttab_entry e;
		int r = crypttab_parse_line(line, &e);

		n++;
		if (r == 1)
			r = stack_params_add_crypttab(p, &e);
		if (r < 0)
			log_warn("%s line %d: %s; the line is ignored", IMAGE_CRYPTTAB, n,
				 r == -E2BIG ? "too many containers" : "malformed");
	}
	fclose(f);
}

void lukscfg_load(struct stack_params *p)
{
	if (!p->crypttab)
		log_info("rd.luks.crypttab=0: the image's %s is not read", IMAGE_CRYPTTAB);
	else
		crypttab_read(p);
	if (p->has_all_opts && p->all_opts.n_notes)
		log_warn("rd.luks.options= (every container without options of its own): %s",
			 p->all_opts.notes);
	for (size_t i = 0; i < p->n_uuid_opts; i++)
		if (p->uuid_opts[i].opts.n_notes)
			log_warn("rd.luks.options= for the container UUID=%s: %s",
				 p->uuid_opts[i].uuid, p->uuid_opts[i].opts.notes);
	for (size_t i = 0; i < p->n_tab; i++)
		if (p->tab[i].opts.n_notes)
			log_warn("%s, options of %s (UUID=%s): %s", IMAGE_CRYPTTAB, p->tab[i].name,
				 p->tab[i].uuid, p->tab[i].opts.notes);
}
