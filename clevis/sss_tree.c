/* sss_tree: an sss binding's tree of shares, and the rule that decides
 * each of its sss nodes as the answers come. */
#include "clevis/sss_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A node's kind from its pin and depth. A share nested deeper than the
 * limit is not read further: asked, it fails saying so (clevis/pin.c). */
static enum sss_tree_kind kind_of(const struct sss_tree_node *v)
{
	const char *pin = jwe_pin(v->jwe);

	if (v->depth <= JWE_DEPTH_MAX && pin && strcmp(pin, "sss") == 0)
		return SSS_TREE_SSS;
	if (v->depth <= JWE_DEPTH_MAX && pin && strcmp(pin, "tang") == 0)
		return SSS_TREE_TANG;
	return SSS_TREE_LOCAL;
}

static void decide(struct sss_tree_node *v, long got)
{
	v->done = true;
	v->got = got;
}

/* Node i's children appended to the tree: the next level. */
static void expand(struct sss_tree *t, size_t i)
{
	struct sss_tree_node *v = &t->nodes[i];

	long bad = sss_header_read(v->jwe, &v->sss) < 0 ? -EINVAL
		   : t->n + v->sss.n > SSS_TREE_NODES_MAX ? -E2BIG : 0;

	if (bad) {
		v->sss.n = 0;   /* no children in the tree */
		decide(v, bad);
		return;
	}
	v->first = t->n;
	for (size_t k = 0; k < v->sss.n; k++) {
		struct sss_tree_node *c = &t->nodes[t->n++];

		*c = (struct sss_tree_node){ .jwe = &c->own, .parent = (int)i, .index = k,
					     .depth = v->depth + 1 };
		if (sss_header_child(&v->sss, k, &c->own) < 0) {
			c->jwe = NULL;
			c->kind = SSS_TREE_BROKEN;
			decide(c, -EINVAL);
		} else {
			c->kind = kind_of(c);
		}
	}
}

/* Whether node c gave its parent a point (x || y, each as long as p). */
static bool is_point(const struct sss_tree *t, const struct sss_tree_node *c)
{
	return c->done && c->got >= 0 && (size_t)c->got == 2 * t->nodes[c->parent].sss.p_len;
}

/* Node i's key from t of its children's points (those that need no
 * network first, as they were asked), its JWE decrypted. */
static void open_node(struct sss_tree *t, size_t i)
{
	struct sss_tree_node *v = &t->nodes[i];
	unsigned char points[SSS_CHILDREN_MAX * 2 * SSS_P_MAX];
	size_t taken = 0, len = 2 * v->sss.p_len;

	for (int local = 1; local >= 0; local--)
		for (size_t c = v->first; c < v->first + v->sss.n && taken < (size_t)v->sss.t; c++) {
			struct sss_tree_node *k = &t->nodes[c];

			if ((k->kind == SSS_TREE_LOCAL) != local || !is_point(t, k))
				continue;
			memcpy(points + taken++ * len, k->plain, len);
			k->took = true;
		}
	decide(v, sss_open(v->jwe, &v->sss, points, i ? v->plain : t->out,
			   i ? sizeof(v->plain) : t->size));
	explicit_bzero(points, sizeof(points));
}

/* Node i (sss, not decided) opened when t of its children gave their
 * point, lost when too many failed for t to remain. */
static void settle(struct sss_tree *t, size_t i)
{
	struct sss_tree_node *v = &t->nodes[i];
	size_t ok = 0, failed = 0;

	for (size_t c = v->first; c < v->first + v->sss.n; c++) {
		ok += is_point(t, &t->nodes[c]);
		failed += t->nodes[c].done && !is_point(t, &t->nodes[c]);
	}
	if (ok >= (size_t)v->sss.t)
		open_node(t, i);
	else if (failed > v->sss.n - (size_t)v->sss.t)
		decide(v, -ENOKEY);
}

int sss_tree_build(struct sss_tree *t, const struct clevis_jwe *root, const char *what,
		   unsigned char *out, size_t size)
{
	*t = (struct sss_tree){ .what = what, .out = out, .size = size };
	t->nodes = calloc(SSS_TREE_NODES_MAX, sizeof(*t->nodes));
	if (!t->nodes)
		return -ENOMEM;
	t->nodes[0] = (struct sss_tree_node){ .jwe = root, .parent = -1, .kind = SSS_TREE_SSS };
	t->n = 1;
	/* Level after level: each node's children follow the level above. */
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].kind == SSS_TREE_SSS)
			expand(t, i);
	/* Children not JWEs may have lost a node already; deepest first. */
	for (size_t i = t->n; i-- > 0;)
		if (t->nodes[i].kind == SSS_TREE_SSS && !t->nodes[i].done)
			settle(t, i);
	return 0;
}

void sss_tree_free(struct sss_tree *t)
{
	if (!t->nodes)
		return;
	for (size_t i = 1; i < t->n; i++)
		if (t->nodes[i].jwe)
			jwe_free(&t->nodes[i].own);
	explicit_bzero(t->nodes, t->n * sizeof(*t->nodes));
	free(t->nodes);
	t->nodes = NULL;
}

bool sss_tree_wanted(const struct sss_tree *t, size_t i)
{
	for (int at = (int)i; at >= 0; at = t->nodes[at].parent)
		if (t->nodes[at].done)
			return false;
	return true;
}

void sss_tree_record(struct sss_tree *t, size_t i, long got, const unsigned char *plain)
{
	struct sss_tree_node *v = &t->nodes[i];

	if (v->done)
		return;
	if (got > (long)sizeof(v->plain))
		got = -ENOSPC;
	if (got > 0)
		memcpy(v->plain, plain, (size_t)got);
	decide(v, got);
	for (int p = v->parent; p >= 0 && !t->nodes[p].done; p = t->nodes[p].parent) {
		settle(t, (size_t)p);
		if (!t->nodes[p].done)
			break;
	}
}

bool sss_tree_decided(const struct sss_tree *t)
{
	return t->nodes[0].done;
}

void sss_tree_what(const struct sss_tree *t, size_t i, char *buf, size_t size)
{
	const struct sss_tree_node *v = &t->nodes[i];
	const char *pin = v->jwe ? jwe_pin(v->jwe) : NULL;
	size_t len;

	if (v->parent < 0) {
		snprintf(buf, size, "%s", t->what);
		return;
	}
	sss_tree_what(t, (size_t)v->parent, buf, size);
	len = strlen(buf);
	snprintf(buf + len, size - len, ": sss share %zu (%s)", v->index + 1,
		 pin && strlen(pin) < 16 ? pin : "?");
}

/* "sss (tpm2, sss (tang))": the children whose points opened node i. */
static void used_of(const struct sss_tree *t, size_t i, char *buf, size_t size)
{
	const struct sss_tree_node *v = &t->nodes[i];
	size_t len;

	snprintf(buf, size, "sss (");
	for (int local = 1; local >= 0; local--)
		for (size_t c = v->first; c < v->first + v->sss.n; c++) {
			const struct sss_tree_node *k = &t->nodes[c];
			char sub[128];

			if (!k->took || (k->kind == SSS_TREE_LOCAL) != local)
				continue;
			if (k->kind == SSS_TREE_SSS)
				used_of(t, c, sub, sizeof(sub));
			else
				snprintf(sub, sizeof(sub), "%s", jwe_pin(k->jwe));
			len = strlen(buf);
			snprintf(buf + len, size - len, "%s%s", len && buf[len - 1] == '(' ? "" : ", ", sub);
		}
	len = strlen(buf);
	snprintf(buf + len, size - len, ")");
}

/* Why node i (sss) failed, after the sss nodes below it that failed. */
static void say_failed(const struct sss_tree *t, size_t i, FILE *report)
{
	const struct sss_tree_node *v = &t->nodes[i];
	char what[512];
	size_t ok = 0;

	for (size_t c = v->first; c < v->first + v->sss.n; c++) {
		const struct sss_tree_node *k = &t->nodes[c];

		ok += is_point(t, k);
		if (k->kind == SSS_TREE_SSS && k->done && k->got < 0)
			say_failed(t, c, report);
	}
	sss_tree_what(t, i, what, sizeof(what));
	if (v->got == -EINVAL)
		fprintf(report, "%s: sss: the header is not clevis's sss (p, t, jwe)\n", what);
	else if (v->got == -E2BIG)
		fprintf(report, "%s: sss: more than %d shares in all\n", what, SSS_TREE_NODES_MAX);
	else if (!v->done || v->got == -ENOKEY)
		fprintf(report, "%s: sss: %zu of its %zu shares recovered, %d needed\n", what, ok,
			v->sss.n, v->sss.t);
	else
		fprintf(report, "%s: sss: the %d shares do not decrypt it\n", what, v->sss.t);
}

long sss_tree_result(const struct sss_tree *t, FILE *report, char *used, size_t used_size)
{
	const struct sss_tree_node *root = &t->nodes[0];

	if (root->done && root->got >= 0) {
		used_of(t, 0, used, used_size);
		return root->got;
	}
	say_failed(t, 0, report);
	return root->done ? root->got : -ENOKEY;
}
