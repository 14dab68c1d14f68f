/* tss2fn: libtss2, opened at run time (dlopen). */
#include "clevis/tss2fn.h"

#include <errno.h>
#include <stdio.h>

#include "bootlib/dlsyms.h"

#define S(name, field) DLSYMS_ENTRY(struct tss2fn, name, field)
static const struct dlsyms_entry esys[] = {
	S("Esys_Initialize", initialize),
	S("Esys_Finalize", finalize),
	S("Esys_SetTimeout", set_timeout),
	S("Esys_CreatePrimary", create_primary),
	S("Esys_Load", load),
	S("Esys_StartAuthSession", start_auth_session),
	S("Esys_PolicyPCR", policy_pcr),
	S("Esys_Unseal", unseal),
	S("Esys_FlushContext", flush_context),
	S("Esys_Free", free),
};
static const struct dlsyms_entry mu[] = {
	S("Tss2_MU_TPM2B_PUBLIC_Unmarshal", public_unmarshal),
	S("Tss2_MU_TPM2B_PRIVATE_Unmarshal", private_unmarshal),
};
static const struct dlsyms_entry tcti[] = {
	S("Tss2_Tcti_Device_Init", tcti_device_init),
};
#undef S

static const struct {
	const char *lib;
	const struct dlsyms_entry *table;
	size_t n;
} libs[] = {
	{ LAYOUT_TSS2_ESYS, esys, sizeof(esys) / sizeof(esys[0]) },
	{ LAYOUT_TSS2_MU, mu, sizeof(mu) / sizeof(mu[0]) },
	{ LAYOUT_TSS2_TCTI_DEVICE, tcti, sizeof(tcti) / sizeof(tcti[0]) },
};

static int load(struct tss2fn *fn, char *why, size_t why_size)
{
	char detail[200];

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		/* Each library stays open for the program's life. */
		int r = dlsyms_load(libs[i].lib, libs[i].table, libs[i].n, fn, sizeof(*fn), detail,
				    sizeof(detail));

		if (r == -ENOENT)
			snprintf(why, why_size, "libtss2 is missing from the image (%s)", detail);
		else if (r < 0)
			snprintf(why, why_size, "%s", detail);
		if (r < 0)
			return -1;
	}
	return 0;
}

const struct tss2fn *tss2fn_get(char *why, size_t why_size)
{
	static struct tss2fn fn;
	static int state;   /* 0 not tried, 1 loaded, -1 failed */

	if (state == 0)
		state = load(&fn, why, why_size) == 0 ? 1 : -1;
	else if (state < 0)
		snprintf(why, why_size, "libtss2 is missing from the image");
	return state > 0 ? &fn : NULL;
}
