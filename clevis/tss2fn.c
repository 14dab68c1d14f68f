/* tss2fn: libtss2, opened at run time (dlopen). */
#include "clevis/tss2fn.h"

#include <dlfcn.h>
#include <stdio.h>

static const struct {
	const char *lib;
	const char *name;
	size_t offset;
} symbols[] = {
#define S(lib, name, field) { lib, name, offsetof(struct tss2fn, field) }
	S(LAYOUT_TSS2_ESYS, "Esys_Initialize", initialize),
	S(LAYOUT_TSS2_ESYS, "Esys_Finalize", finalize),
	S(LAYOUT_TSS2_ESYS, "Esys_SetTimeout", set_timeout),
	S(LAYOUT_TSS2_ESYS, "Esys_CreatePrimary", create_primary),
	S(LAYOUT_TSS2_ESYS, "Esys_Load", load),
	S(LAYOUT_TSS2_ESYS, "Esys_StartAuthSession", start_auth_session),
	S(LAYOUT_TSS2_ESYS, "Esys_PolicyPCR", policy_pcr),
	S(LAYOUT_TSS2_ESYS, "Esys_Unseal", unseal),
	S(LAYOUT_TSS2_ESYS, "Esys_FlushContext", flush_context),
	S(LAYOUT_TSS2_ESYS, "Esys_Free", free),
	S(LAYOUT_TSS2_MU, "Tss2_MU_TPM2B_PUBLIC_Unmarshal", public_unmarshal),
	S(LAYOUT_TSS2_MU, "Tss2_MU_TPM2B_PRIVATE_Unmarshal", private_unmarshal),
	S(LAYOUT_TSS2_TCTI_DEVICE, "Tss2_Tcti_Device_Init", tcti_device_init),
#undef S
};

static int load(struct tss2fn *fn, char *why, size_t why_size)
{
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		/* Each library stays open for the program's life. */
		void *lib = dlopen(symbols[i].lib, RTLD_NOW | RTLD_LOCAL);
		void *sym = lib ? dlsym(lib, symbols[i].name) : NULL;

		if (!lib) {
			snprintf(why, why_size, "libtss2 is missing from the image (%s)", dlerror());
			return -1;
		}
		if (!sym) {
			snprintf(why, why_size, "%s has no %s", symbols[i].lib, symbols[i].name);
			return -1;
		}
		/* POSIX guarantees data and function pointers convert (dlsym). */
		*(void **)((char *)fn + symbols[i].offset) = sym;
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
