/* tss2fn: libtss2 (ESAPI, its marshalling and the device TCTI), opened at
 * run time (dlopen) when a binding has a tpm2 share, so that an image for
 * Tang bindings only does not carry the TPM stack (1.1 MB unpacked). The
 * generator adds the libraries (TSS2FN_LIBS) to images that may meet a
 * tpm2 pin (LAYOUT_TSS2_LIBS, gen/feature/clevis_pack.c). */
#ifndef LIFEBOAT_TSS2FN_H
#define LIFEBOAT_TSS2FN_H

#include <stddef.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>

#include "common/layout.h"

struct tss2fn {
	TSS2_RC (*initialize)(ESYS_CONTEXT **, TSS2_TCTI_CONTEXT *, TSS2_ABI_VERSION *);
	void (*finalize)(ESYS_CONTEXT **);
	TSS2_RC (*set_timeout)(ESYS_CONTEXT *, int32_t);
	TSS2_RC (*create_primary)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR,
				  const TPM2B_SENSITIVE_CREATE *, const TPM2B_PUBLIC *,
				  const TPM2B_DATA *, const TPML_PCR_SELECTION *, ESYS_TR *,
				  TPM2B_PUBLIC **, TPM2B_CREATION_DATA **, TPM2B_DIGEST **,
				  TPMT_TK_CREATION **);
	TSS2_RC (*load)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const TPM2B_PRIVATE *,
			const TPM2B_PUBLIC *, ESYS_TR *);
	TSS2_RC (*start_auth_session)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR,
				      const TPM2B_NONCE *, TPM2_SE, const TPMT_SYM_DEF *,
				      TPMI_ALG_HASH, ESYS_TR *);
	TSS2_RC (*policy_pcr)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR,
			      const TPM2B_DIGEST *, const TPML_PCR_SELECTION *);
	TSS2_RC (*unseal)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR,
			  TPM2B_SENSITIVE_DATA **);
	TSS2_RC (*flush_context)(ESYS_CONTEXT *, ESYS_TR);
	void (*free)(void *);
	TSS2_RC (*public_unmarshal)(const uint8_t *, size_t, size_t *, TPM2B_PUBLIC *);
	TSS2_RC (*private_unmarshal)(const uint8_t *, size_t, size_t *, TPM2B_PRIVATE *);
	TSS2_RC (*tcti_device_init)(TSS2_TCTI_CONTEXT *, size_t *, const char *);
};

/* The functions, loaded once. Returns the table, or NULL with why saying
 * which library or symbol is missing. */
const struct tss2fn *tss2fn_get(char *why, size_t why_size);

#endif
