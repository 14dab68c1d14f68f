/* Unit tests: a crypttab keyscript's argument and environment
 * (blockstack/keyscript_env.c), as cryptsetup-initramfs gives them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/keyscript_env.h"

/* The value of NAME in env, or NULL when it is not set. */
static const char *env_get(const struct keyscript_env *env, const char *name)
{
	size_t len = strlen(name);

	assert_null(env->envp[env->n_env]);
	for (size_t i = 0; i < env->n_env; i++)
		if (strncmp(env->envp[i], name, len) == 0 && env->envp[i][len] == '=')
			return env->envp[i] + len + 1;
	return NULL;
}

static void fields_and_tries(void **state)
{
	struct keyscript_env env;
	const struct keyscript_line line = { "lbroot", "UUID=1b2c", "/dev/vda", "lbkey",
					     "luks,keyscript=decrypt_keyctl" };

	(void)state;
	assert_int_equal(keyscript_env_make(&env, "/lib/cryptsetup/scripts/decrypt_keyctl", &line, 0), 0);
	assert_string_equal(env.argv[0], "/lib/cryptsetup/scripts/decrypt_keyctl");
	assert_string_equal(env.argv[1], "lbkey");
	assert_null(env.argv[2]);
	assert_string_equal(env_get(&env, "CRYPTTAB_NAME"), "lbroot");
	assert_string_equal(env_get(&env, "_CRYPTTAB_NAME"), "lbroot");
	assert_string_equal(env_get(&env, "CRYPTTAB_SOURCE"), "/dev/vda");
	assert_string_equal(env_get(&env, "_CRYPTTAB_SOURCE"), "UUID=1b2c");
	assert_string_equal(env_get(&env, "CRYPTTAB_KEY"), "lbkey");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTIONS"), "luks,keyscript=decrypt_keyctl");
	assert_string_equal(env_get(&env, "CRYPTTAB_TRIED"), "0");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_luks"), "yes");
	/* A bare name is in /lib/cryptsetup/scripts, as cryptsetup resolves it. */
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_keyscript"),
			    "/lib/cryptsetup/scripts/decrypt_keyctl");
	assert_string_equal(env_get(&env, "PATH"), "/usr/sbin:/usr/bin:/sbin:/bin");
	assert_int_equal(keyscript_env_make(&env, "/k", &line, 2), 0);
	assert_string_equal(env_get(&env, "CRYPTTAB_TRIED"), "2");
}

/* Aliases under their first name, '-' as '_', values as given, tmp's and
 * check's defaults; options cryptsetup-initramfs does not know are left
 * out; an option given twice has its last value. */
static void option_variables(void **state)
{
	struct keyscript_env env;
	const struct keyscript_line line = {
		"n", "UUID=1", "/dev/vdb", "none",
		"read-only,keyfile-offset=10,key-slot=1,tmp,check,check=blkid,tries=0,"
		"tpm2-device=auto,x-foo,tries=5,same-cpu-crypt,keyscript=/usr/local/sbin/k"
	};

	(void)state;
	assert_int_equal(keyscript_env_make(&env, "/usr/local/sbin/k", &line, 1), 0);
	assert_string_equal(env.argv[1], "none");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_readonly"), "yes");
	assert_null(env_get(&env, "CRYPTTAB_OPTION_read-only"));
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_keyfile_offset"), "10");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_keyslot"), "1");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_tmp"), "ext4");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_check"), "/lib/cryptsetup/checks/blkid");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_tries"), "5");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_same_cpu_crypt"), "yes");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_keyscript"), "/usr/local/sbin/k");
	assert_null(env_get(&env, "CRYPTTAB_OPTION_tpm2_device"));
	assert_null(env_get(&env, "CRYPTTAB_OPTION_x_foo"));
	/* Each variable once. */
	for (size_t i = 0; i < env.n_env; i++)
		for (size_t j = i + 1; j < env.n_env; j++)
			assert_true(strncmp(env.envp[i], env.envp[j],
					    strcspn(env.envp[i], "=") + 1) != 0);
}

/* crypttab's octal sequences: decoded in CRYPTTAB_X and argv[1], as
 * written in _CRYPTTAB_X; an option's value too. */
static void octal_sequences(void **state)
{
	struct keyscript_env env;
	const struct keyscript_line line = { "my\\0040disk", "UUID=1", "/dev/vda",
					     "/dev/disk/by-label/KEYS:/a\\0040b.key",
					     "cipher=aes\\0054x,luks" };
	char out[8];

	(void)state;
	assert_int_equal(keyscript_env_make(&env, "/k", &line, 0), 0);
	assert_string_equal(env_get(&env, "CRYPTTAB_NAME"), "my disk");
	assert_string_equal(env_get(&env, "_CRYPTTAB_NAME"), "my\\0040disk");
	assert_string_equal(env.argv[1], "/dev/disk/by-label/KEYS:/a b.key");
	assert_string_equal(env_get(&env, "_CRYPTTAB_KEY"), "/dev/disk/by-label/KEYS:/a\\0040b.key");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTIONS"), "cipher=aes,x,luks");
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_cipher"), "aes,x");
	/* A NUL byte ends the value; a cut keeps the terminator. */
	keyscript_decode("ab\\0000cd", out, sizeof(out));
	assert_string_equal(out, "ab");
	keyscript_decode("abcdefghij", out, sizeof(out));
	assert_string_equal(out, "abcdefg");
	keyscript_decode("a\\0", out, sizeof(out));
	assert_string_equal(out, "a");
}

/* The longest fields crypttab_parse_line takes fit, whatever they hold. */
static void longest_line_fits(void **state)
{
	static char name[CRYPTTAB_FIELD_MAX], key[CRYPTTAB_FIELD_MAX], opts[CRYPTTAB_FIELD_MAX];
	struct keyscript_env env;
	struct keyscript_line line = { name, name, name, key, opts };

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	memset(key, 'k', sizeof(key) - 1);
	/* "luks,luks,...": one variable however often it is given. */
	for (size_t i = 0; i + 5 < sizeof(opts); i += 5)
		memcpy(opts + i, "luks,", 5);
	assert_int_equal(keyscript_env_make(&env, "/k", &line, 7), 0);
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_luks"), "yes");
	/* Short options, each a variable of its own. */
	snprintf(opts, sizeof(opts), "%s", "cipher=a,hash=b,size=1,offset=1,skip=1,keyslot=1,"
		 "header=/h,verify,readonly,discard,plain,luks,tcrypt,veracrypt,tcrypthidden,"
		 "bitlk,fvault2,swap,tmp=x,check=/c,checkargs=x,tries=1,initramfs,noearly");
	assert_int_equal(keyscript_env_make(&env, "/k", &line, 7), 0);
	assert_string_equal(env_get(&env, "CRYPTTAB_OPTION_noearly"), "yes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_and_tries),
		cmocka_unit_test(option_variables),
		cmocka_unit_test(octal_sequences),
		cmocka_unit_test(longest_line_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
