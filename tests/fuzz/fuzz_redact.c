/* fuzz_redact: the redaction (common/redact.c) against the parser
 * (bootlib/cmdline.c), differentially. On any text:
 *  - word by word, the redacted line splits as the original does; a word
 *    the parser reads as a secret has exactly its secret replaced by "*",
 *    every other word and every blank between them is the same bytes;
 *  - what the parser makes of the redacted line is what it made of the
 *    original but for the secrets, which read as "*" (or are gone);
 *  - the text never grows, and redact_has_secrets agrees;
 *  - as log lines, redacting the output again changes nothing;
 *  - as a root path (DHCP's root-path), net/iscsi/rfc4173.c reads the stripped
 *    text as the same target without CHAP, and the redacted one with none.
 * Any difference aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "init/bootargs.h"
#include "common/cmdwords.h"
#include "common/redact.h"
#include "net/iscsi/rfc4173.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* Word a as redacted: its text before the secret, "*", and after it unless
 * the parser never saw the end of the word. */
static void word_check(const struct cmdword *a, const struct cmdword *b)
{
	size_t start, len;

	if (!redact_word_secret(a->text, &start, &len)) {
		CHECK(a->raw_len == b->raw_len && memcmp(a->raw, b->raw, a->raw_len) == 0);
		return;
	}
	CHECK(b->len >= start + 1 && memcmp(a->text, b->text, start) == 0);
	CHECK(b->text[start] == '*');
	if (a->cut)
		CHECK(b->len == start + 1);
	else
		CHECK(strcmp(b->text + start + 1, a->text + start + len) == 0);
}

static void words_check(const char *line, const char *out)
{
	static struct cmdword a, b;
	const char *pa = line, *pb = out, *ea = line, *eb = out;

	for (;;) {
		bool more_a = cmdwords_next(&pa, &a), more_b = cmdwords_next(&pb, &b);

		CHECK(more_a == more_b);
		/* The blanks before the word (or at the end) are the same. */
		CHECK((more_a ? a.raw : pa) - ea == (more_b ? b.raw : pb) - eb);
		CHECK(memcmp(ea, eb, (size_t)((more_a ? a.raw : pa) - ea)) == 0);
		if (!more_a)
			return;
		word_check(&a, &b);
		ea = pa;
		eb = pb;
	}
}

/* The boot_args fields a secret may not be in, checked by themselves. */
static void secret_field_check(const char *orig, const char *redacted)
{
	CHECK(redacted[0] == '\0' || strcmp(redacted, "*") == 0);
	CHECK(orig[0] == '\0' || strcmp(redacted, "*") == 0);
}

static void path_field_check(const char *orig, const char *redacted)
{
	size_t start, len;

	if (!redact_path_creds(redacted, &start, &len)) {
		CHECK(strcmp(orig, redacted) == 0);
		return;
	}
	CHECK(len == 1 && redacted[start] == '*');
}

static bool strv_equal(const struct strv *x, const struct strv *y)
{
	if (x->len != y->len)
		return false;
	for (size_t i = 0; i < x->len; i++)
		if (strcmp(x->items[i], y->items[i]) != 0)
			return false;
	return true;
}

#define SAME_STR(f) CHECK(strcmp(a->f, b->f) == 0)
#define SAME(f) CHECK(a->f == b->f)

static void args_check(const struct boot_args *a, const struct boot_args *b)
{
	secret_field_check(a->iscsi.password, b->iscsi.password);
	secret_field_check(a->iscsi.in_password, b->iscsi.in_password);
	path_field_check(a->root.root, b->root.root);
	path_field_check(a->net.netroot, b->net.netroot);
	SAME_STR(root.fstype); SAME_STR(root.flags); SAME_STR(root.init); SAME(root.rw);
	SAME(root.timeout_sec);
	SAME_STR(resume.device); SAME(resume.offset); SAME(resume.noresume);
	SAME(resume.timeout_sec);
	SAME(rescue.shell); SAME(rescue.break_stages);
	SAME_STR(net.ip); SAME_STR(net.bootdev); SAME_STR(net.nfsroot); SAME(net.neednet);
	SAME(net.timeout_dhcp); SAME(net.timeout_carrier);
	SAME_STR(iscsi.initiator); SAME_STR(iscsi.target_name); SAME_STR(iscsi.target_ip);
	SAME_STR(iscsi.target_port); SAME_STR(iscsi.target_group); SAME_STR(iscsi.username);
	SAME_STR(iscsi.in_username); SAME(iscsi.firmware);
	SAME(fsck); SAME(debug);
	CHECK(strv_equal(&a->drivers.pre, &b->drivers.pre));
	CHECK(strv_equal(&a->drivers.post, &b->drivers.post));
	CHECK(strv_equal(&a->drivers.blacklist, &b->drivers.blacklist));
	/* Both start zeroed (stack_params_init) and take the same words. */
	CHECK(memcmp(&a->stacks, &b->stacks, sizeof(a->stacks)) == 0);
}

static bool chap_empty(const struct iscsi_chap *c)
{
	return !c->username[0] && !c->password[0] && !c->in_username[0] && !c->in_password[0];
}

static void root_path_check(const char *text, size_t size)
{
	static struct iscsi_target a, b;
	char *out = malloc(size + 2);
	bool found;
	int ra, rb;

	CHECK(out);
	found = redact_path_strip(text, out, size + 2);
	ra = rfc4173_parse(text, &a);
	rb = rfc4173_parse(out, &b);
	CHECK(strlen(out) <= strlen(text));
	CHECK(found || strcmp(out, text) == 0);
	CHECK(found || ra < 0 || chap_empty(&a.chap));
	CHECK(chap_empty(&b.chap));
	if (ra == 0)
		CHECK(rb == 0 && strcmp(a.server, b.server) == 0 && a.port == b.port &&
		      a.lun == b.lun && a.lun_given == b.lun_given && strcmp(a.name, b.name) == 0);
	CHECK(redact_path(text, out, size + 2) == found);
	rfc4173_parse(out, &b);
	CHECK(chap_empty(&b.chap));
	free(out);
}

/* Every blank-separated piece of every word of the redacted log text (what
 * a quoted list of parameters holds) that is a secret by itself is "*". */
static void pieces_check(const char *out, size_t len)
{
	static struct cmdword w;
	char *copy = malloc(len + 1);

	CHECK(copy);
	for (size_t i = 0; i < len; i++)
		copy[i] = out[i] == '\n' ? '\0' : out[i];
	copy[len] = '\0';
	/* Line by line: a newline or a NUL ends one. */
	for (size_t i = 0; i <= len; i += strlen(copy + i) + 1) {
		const char *p = copy + i;

		while (cmdwords_next(&p, &w)) {
			char *save = NULL;

			for (char *piece = strtok_r(w.text, " \t", &save); piece;
			     piece = strtok_r(NULL, " \t", &save)) {
				size_t start, slen;

				if (redact_word_secret(piece, &start, &slen))
					CHECK(slen == 1 && piece[start] == '*');
			}
		}
	}
	free(copy);
}

/* Several lines (and NULs) at once, as the rescue report and ls use it:
 * never longer, and nothing left to redact (every secret, also one inside a
 * quoted list of parameters, is "*" already: a second pass is the same). */
static void lines_check(const uint8_t *data, size_t size)
{
	size_t len, len2;
	bool found;
	char *out = redact_lines((const char *)data, size, &len, &found), *again;

	CHECK(out && len <= size);
	again = redact_lines(out, len, &len2, &found);
	CHECK(again && len2 == len && memcmp(again, out, len) == 0);
	pieces_check(out, len);
	free(again);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), *out = malloc(size + 1);
	struct boot_args a, b;
	bool found;

	if (!line || !out)
		abort();
	memcpy(line, data, size);
	line[size] = '\0';
	found = redact_cmdline(line, out, size + 1);
	CHECK(strlen(out) <= strlen(line));
	CHECK(found == redact_has_secrets(line));
	CHECK(found || strcmp(out, line) == 0);
	words_check(line, out);
	bootargs_init(&a);
	bootargs_init(&b);
	bootargs_parse(line, NULL, &a);
	bootargs_parse(out, NULL, &b);
	args_check(&a, &b);
	bootargs_free(&a);
	bootargs_free(&b);
	lines_check(data, size);
	root_path_check(line, size);
	free(line);
	free(out);
	return 0;
}
