/* Unit tests: the order a LUKS container is opened in (blockstack/luksunlock.c):
 * key files, TPM2 token, Tang, passphrase (or keyscript); a container waiting for its key
 * device, and containers queued behind a prompt that holds the console.
 * The steps are stand-ins that record their calls. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blockstack/luksunlock.h"

#define U1 "1b2c3d4e-0001-4a5b-8c6d-7e8f9a0b1c2d"
#define U2 "1b2c3d4e-0004-4a5b-8c6d-7e8f9a0b1c2d"
#define U3 "1b2c3d4e-0006-4a5b-8c6d-7e8f9a0b1c2d"

/* What each step answers, and what was called, in order. */
static struct {
	enum key_result key;
	enum token_result tpm2;
	enum tang_result tang;
	int passphrase;
	bool busy;
	bool keydev_allowed_seen;
	bool clevis_retry_seen;
	char calls[512];
	char failed[128];
} fake;

static void call(const char *step, const struct luks_container *c)
{
	snprintf(fake.calls + strlen(fake.calls), sizeof(fake.calls) - strlen(fake.calls),
		 "%s%s:%s", fake.calls[0] ? " " : "", step, c->devname);
}

static void fake_modules(void)
{
}

static enum key_result fake_keys(const struct stack_params *p, const struct luks_container *c,
				 bool keydev_allowed, bool last_chance)
{
	(void)p;
	fake.keydev_allowed_seen = keydev_allowed;
	call(last_chance ? "keys-last" : "keys", c);
	return fake.key;
}

static enum token_result fake_tpm2(const struct luks_container *c)
{
	call("tpm2", c);
	return fake.tpm2;
}

static enum tang_result fake_tang(const struct luks_container *c)
{
	call("tang", c);
	return fake.tang;
}

/* The person answers: the console is busy while they do. */
static int fake_passphrase(const struct luks_container *c)
{
	call("passphrase", c);
	fake.clevis_retry_seen = c->clevis_retry;
	return fake.passphrase;
}

/* The keyscript runs where the passphrase would be asked. */
static int fake_keyscript(const struct stack_params *p, const struct luks_container *c)
{
	(void)p;
	call("keyscript", c);
	return fake.passphrase;
}

static bool fake_busy(void)
{
	return fake.busy;
}

static void fake_failed(const char *devname, const char *uuid)
{
	(void)uuid;
	snprintf(fake.failed, sizeof(fake.failed), "%s", devname);
}

static const struct luksunlock_ops ops = {
	.load_modules = fake_modules,
	.keys = fake_keys,
	.token = fake_tpm2,
	.tang = fake_tang,
	.passphrase = fake_passphrase,
	.keyscript = fake_keyscript,
	.prompt_busy = fake_busy,
};

static struct stack_params params;
static struct luksunlock_state u;

static int setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.key = KEY_NONE;
	fake.tpm2 = TOKEN_NONE;
	fake.tang = TANG_NONE;
	stack_params_init(&params);
	luksunlock_init(&u, &ops, &params, fake_failed);
	return 0;
}

/* Nothing else opens it: every step in order, the passphrase last. */
static void order_ends_with_the_passphrase(void **state)
{
	(void)state;
	assert_int_equal(luksunlock_container(&u, "vda", U1, false, true), 0);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda tang:vda passphrase:vda");
}

/* Bindings that failed (a Tang server down) are tried again behind the
 * prompt; a container without any (or without lifeboat-clevis) is not. */
static void failed_bindings_retried_behind_the_prompt(void **state)
{
	(void)state;
	fake.tang = TANG_FAILED;
	luksunlock_container(&u, "vda", U1, false, true);
	assert_true(fake.clevis_retry_seen);
	fake.tang = TANG_NONE;
	luksunlock_container(&u, "vdb", U2, false, true);
	assert_false(fake.clevis_retry_seen);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda tang:vda passphrase:vda "
			    "keys:vdb tpm2:vdb tang:vdb passphrase:vdb");
}

/* Each step that opens it ends the order there. */
static void each_step_stops_the_order(void **state)
{
	(void)state;
	fake.key = KEY_OPENED;
	luksunlock_container(&u, "vda", U1, false, true);
	fake.key = KEY_FAILED;
	fake.tpm2 = TOKEN_OPENED;
	luksunlock_container(&u, "vdb", U2, false, true);
	fake.tpm2 = TOKEN_REFUSED;
	fake.tang = TANG_OPENED;
	luksunlock_container(&u, "vdc", U3, false, true);
	assert_string_equal(fake.calls, "keys:vda keys:vdb tpm2:vdb keys:vdc tpm2:vdc tang:vdc");
}

/* A key device not there yet: nothing else is tried; once the devices
 * settle (last chance) the key fails and the order goes on. Key devices
 * are read only after the resume decision. */
static void waits_for_its_key_device(void **state)
{
	(void)state;
	fake.key = KEY_WAIT;
	luksunlock_container(&u, "vda", U1, false, true);
	assert_int_equal(u.n_pending, 1);
	assert_false(fake.keydev_allowed_seen);
	u.keydev_allowed = true;
	fake.key = KEY_FAILED;
	luksunlock_retry_pending(&u, true);
	assert_int_equal(u.n_pending, 0);
	assert_true(fake.keydev_allowed_seen);
	assert_string_equal(fake.calls, "keys:vda keys-last:vda tpm2:vda tang:vda passphrase:vda");
}

/* Containers appearing while a prompt holds the console are asked for
 * after it, one after the other, in the order they came. */
static void queued_behind_the_prompt_in_order(void **state)
{
	(void)state;
	fake.busy = true;
	luksunlock_container(&u, "vdb", U2, false, true);
	luksunlock_container(&u, "vdc", U3, false, true);
	assert_int_equal(u.n_queued, 2);
	assert_string_equal(fake.calls, "keys:vdb tpm2:vdb tang:vdb keys:vdc tpm2:vdc tang:vdc");
	fake.calls[0] = '\0';
	fake.busy = false;
	luksunlock_console_free(&u);
	assert_int_equal(u.n_queued, 0);
	assert_string_equal(fake.calls, "keys:vdb tpm2:vdb tang:vdb passphrase:vdb "
			    "keys:vdc tpm2:vdc tang:vdc passphrase:vdc");
}

/* A TPM2 PIN needs the console another prompt holds: queued, no passphrase
 * asked yet. */
static void tpm2_pin_waits_for_the_console(void **state)
{
	(void)state;
	fake.tpm2 = TOKEN_NEEDS_CONSOLE;
	luksunlock_container(&u, "vda", U1, false, true);
	assert_int_equal(u.n_queued, 1);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda");
}

/* A failed unlock gives the device back to the dispatcher, to be offered
 * again after the rescue shell. */
static void failure_is_offered_again(void **state)
{
	(void)state;
	fake.passphrase = -EPERM;
	assert_int_equal(luksunlock_container(&u, "vda", U1, false, true), -EPERM);
	assert_string_equal(fake.failed, "vda");
}

/* A crypttab line's keyscript= takes the passphrase's place, the other
 * steps before it as for any container; behind a busy console it is
 * queued like a prompt (it may prompt), and runs once the console is free. */
static void keyscript_instead_of_the_passphrase(void **state)
{
	struct crypttab_entry e;

	(void)state;
	assert_int_equal(crypttab_parse_line("lbroot UUID=" U1 " lbkey luks,keyscript=decrypt_keyctl",
					     &e), 1);
	assert_int_equal(stack_params_add_crypttab(&params, &e), 0);
	assert_int_equal(luksunlock_container(&u, "vda", U1, false, true), 0);
	assert_int_equal(luksunlock_container(&u, "vdb", U2, false, true), 0);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda tang:vda keyscript:vda "
			    "keys:vdb tpm2:vdb tang:vdb passphrase:vdb");
	fake.calls[0] = '\0';
	fake.busy = true;
	luksunlock_container(&u, "vda", U1, false, true);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda tang:vda");
	fake.busy = false;
	luksunlock_console_free(&u);
	assert_string_equal(fake.calls, "keys:vda tpm2:vda tang:vda keys:vda tpm2:vda tang:vda "
			    "keyscript:vda");
	/* Its failure leaves it locked, offered again later. */
	fake.passphrase = -EACCES;
	assert_int_equal(luksunlock_container(&u, "vda", U1, false, true), -EACCES);
	assert_string_equal(fake.failed, "vda");
}

/* rd.luks=0: not a step is tried. */
static void unwanted_stays_locked(void **state)
{
	(void)state;
	params.luks = false;
	assert_int_equal(luksunlock_container(&u, "vda", U1, false, true), 0);
	assert_string_equal(fake.calls, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(order_ends_with_the_passphrase, setup),
		cmocka_unit_test_setup(each_step_stops_the_order, setup),
		cmocka_unit_test_setup(failed_bindings_retried_behind_the_prompt, setup),
		cmocka_unit_test_setup(waits_for_its_key_device, setup),
		cmocka_unit_test_setup(queued_behind_the_prompt_in_order, setup),
		cmocka_unit_test_setup(tpm2_pin_waits_for_the_console, setup),
		cmocka_unit_test_setup(failure_is_offered_again, setup),
		cmocka_unit_test_setup(unwanted_stays_locked, setup),
		cmocka_unit_test_setup(keyscript_instead_of_the_passphrase, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
