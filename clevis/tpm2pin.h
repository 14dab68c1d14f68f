/* tpm2pin: clevis's tpm2 pin (clevis-encrypt-tpm2(1)). The JWE is a "dir"
 * JWE whose key, an oct JWK, is sealed in a TPM object: the header's
 * clevis.tpm2 holds that object (jwk_pub, jwk_priv: TPM2B_PUBLIC and
 * TPM2B_PRIVATE as tpm2_create writes them), the primary key it was made
 * under (key "ecc" or "rsa", hash: the owner hierarchy's primary that
 * tpm2_createprimary makes with these, which the TPM makes again the same
 * from its seed) and, when bound, the PCR policy (pcr_bank, pcr_ids).
 * Unsealing it here is what clevis-decrypt-tpm2 does with tpm2-tools,
 * through libtss2's ESAPI. */
#ifndef LIFEBOAT_TPM2PIN_H
#define LIFEBOAT_TPM2PIN_H

#include <stddef.h>
#include <stdint.h>
#include <tss2/tss2_tcti.h>
#include <tss2/tss2_tpm2_types.h>

#include "clevis/jwe.h"

#define TPM2PIN_DEVICE "/dev/tpmrm0"
/* How long the TPM is given for each command. */
#define TPM2PIN_TIMEOUT_MS 30000

/* What the header says, checked and decoded. */
struct tpm2pin_binding {
	TPM2_ALG_ID hash;       /* the objects' name algorithm */
	TPM2_ALG_ID key;        /* TPM2_ALG_ECC or TPM2_ALG_RSA: the primary's type */
	TPM2_ALG_ID pcr_bank;   /* TPM2_ALG_NULL: no PCR policy */
	uint32_t pcrs;          /* bit n: PCR n */
	TPM2B_PUBLIC pub;
	TPM2B_PRIVATE priv;
};

/* Open the TCTI the TPM is reached through (*tcti malloc'd). Returns 0
 * or -errno. */
typedef int (*tpm2pin_tcti_fn)(TSS2_TCTI_CONTEXT **tcti, void *ctx);

/* Decode the header of a tpm2-pin JWE. Returns 0, or -EINVAL with why
 * saying what is wrong (-ENOENT: libtss2 cannot be loaded). */
int tpm2pin_parse(const struct clevis_jwe *jwe, struct tpm2pin_binding *b, char *why,
		  size_t why_size);
/* Unseal the JWK and decrypt the JWE with it into out. Returns the
 * plaintext's length; -EINVAL (a header this cannot use), -ENOENT (no
 * libtss2 in the image), -ENODEV (no
 * TPM), -EACCES (the TPM refused: the PCRs changed), -EBUSY (lockout),
 * -EIO (another TPM error), -EBADMSG (the sealed key does not decrypt);
 * why says which in words. */
long tpm2pin_recover(const struct clevis_jwe *jwe, tpm2pin_tcti_fn open_tcti, void *ctx,
		     unsigned char *out, size_t size, char *why, size_t why_size);
/* tpm2pin_tcti_fn for the kernel's resource manager (ctx: a device path,
 * or NULL for TPM2PIN_DEVICE). */
int tpm2pin_tcti_device(TSS2_TCTI_CONTEXT **tcti, void *ctx);
/* Finalize and free a TCTI an opener gave. */
void tpm2pin_tcti_free(TSS2_TCTI_CONTEXT *tcti);

#endif
