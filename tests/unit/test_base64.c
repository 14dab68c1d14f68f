/* Unit tests: common/base64.c, both alphabets (authorized_keys lines on
 * the build host, clevis tokens' JOSE fields in lifeboat-clevis). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "common/base64.h"

/* Every length from 0 to 39 encodes and decodes back, in either alphabet,
 * with the alphabet's own characters and padding only. */
static void round_trip(void **state)
{
	unsigned char data[64], back[64];
	char text[100];

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 67 + 3);
	for (size_t len = 0; len < 40; len++) {
		long url = base64_encode(BASE64_URL, data, len, text, sizeof(text));
		long std;

		assert_int_equal(url, (long)((len * 4 + 2) / 3));
		assert_null(strpbrk(text, "+/="));
		assert_int_equal(base64_decode(BASE64_URL, text, (size_t)url, back, sizeof(back)), (long)len);
		assert_memory_equal(back, data, len);
		std = base64_encode(BASE64_STANDARD, data, len, text, sizeof(text));
		assert_int_equal(std, (long)((len + 2) / 3 * 4));
		assert_null(strpbrk(text, "-_"));
		assert_int_equal(base64_decode(BASE64_STANDARD, text, (size_t)std, back, sizeof(back)), (long)len);
		assert_memory_equal(back, data, len);
	}
}

/* RFC 4648 section 10's vectors. */
static void rfc_vectors(void **state)
{
	static const char *const plain[] = { "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const coded[] = { "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	unsigned char out[16];
	char text[16];

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		size_t len = strlen(plain[i]);

		assert_int_equal(base64_encode(BASE64_STANDARD, (const unsigned char *)plain[i], len,
					       text, sizeof(text)), (long)strlen(coded[i]));
		assert_string_equal(text, coded[i]);
		assert_int_equal(base64_decode(BASE64_STANDARD, coded[i], strlen(coded[i]), out, sizeof(out)),
				 (long)len);
		assert_memory_equal(out, plain[i], len);
		/* base64url takes the same text, padded or not. */
		assert_int_equal(base64_decode(BASE64_URL, coded[i], strlen(coded[i]), out, sizeof(out)),
				 (long)len);
		assert_int_equal(base64_decode(BASE64_URL, coded[i], strcspn(coded[i], "="), out, sizeof(out)),
				 (long)len);
	}
}

static void refused(void **state)
{
	unsigned char out[16];
	char text[8];

	(void)state;
	/* Standard text must be padded; '=' only at the end, two at most. */
	assert_int_equal(base64_decode(BASE64_STANDARD, "aGk", 3, out, sizeof(out)), -EINVAL);
	assert_int_equal(base64_decode(BASE64_STANDARD, "a=Gk", 4, out, sizeof(out)), -EINVAL);
	assert_int_equal(base64_decode(BASE64_STANDARD, "a===", 4, out, sizeof(out)), -EINVAL);
	/* Each alphabet refuses the other's two characters. */
	assert_int_equal(base64_decode(BASE64_URL, "ab+/", 4, out, sizeof(out)), -EINVAL);
	assert_int_equal(base64_decode(BASE64_STANDARD, "ab-_", 4, out, sizeof(out)), -EINVAL);
	/* A lone last character carries fewer than 8 bits. */
	assert_int_equal(base64_decode(BASE64_URL, "abcde", 5, out, sizeof(out)), -EINVAL);
	/* No room, either way. */
	assert_int_equal(base64_decode(BASE64_STANDARD, "aGV5aGV5", 8, out, 4), -ENOSPC);
	assert_int_equal(base64_decode(BASE64_URL, "Zm9vYmE", 7, out, 4), -ENOSPC);
	assert_int_equal(base64_encode(BASE64_URL, (const unsigned char *)"abc", 3, text, 4), -ENOSPC);
	assert_int_equal(base64_encode(BASE64_STANDARD, (const unsigned char *)"a", 1, text, 4), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(rfc_vectors),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
