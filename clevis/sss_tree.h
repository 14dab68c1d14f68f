/* sss_tree: an sss binding's whole tree of shares, nested sss included,
 * read at once so that its shares are asked across every level together
 * (clevis/pin.c): first the shares that need no network, then every Tang
 * share of the tree in one batch. Each answer is recorded on its leaf; an
 * sss node is opened (its t points combined, its JWE decrypted) as soon as
 * t of its children are, and is lost as soon as too many of them failed
 * for t to remain, each going up the tree in turn. So the stop rule of the
 * batch is "the root is decided": opened, or it can no longer be. A leaf
 * under a decided node is no longer worth asking.
 *
 * Limits, against a hostile header: sss nested at most JWE_DEPTH_MAX deep
 * (a share deeper fails when asked), SSS_CHILDREN_MAX children each, and
 * SSS_TREE_NODES_MAX shares in the whole tree (an sss node whose children
 * do not fit fails). */
#ifndef LIFEBOAT_CLEVIS_SSS_TREE_H
#define LIFEBOAT_CLEVIS_SSS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clevis/jwe.h"
#include "clevis/sss.h"

#define SSS_TREE_NODES_MAX 256
/* A share's plaintext: a point, x || y, is 2 * SSS_P_MAX. */
#define SSS_TREE_PLAIN_MAX 256

enum sss_tree_kind {
	SSS_TREE_SSS,     /* sss within the depth limit: its children are nodes */
	SSS_TREE_LOCAL,   /* asked without the network: tpm2, null; and what fails
			   * without asking (an unknown pin, sss too deep) */
	SSS_TREE_TANG,    /* a Tang server */
	SSS_TREE_BROKEN,  /* not a JWE: failed from the start, said only in its
			   * parent's count */
};

struct sss_tree_node {
	const struct clevis_jwe *jwe;   /* the root's is the caller's; the others' own */
	struct clevis_jwe own;
	enum sss_tree_kind kind;
	int parent;                     /* -1 for the root */
	size_t index;                   /* among its parent's children */
	int depth;                      /* the root's is 0 */
	struct sss_header sss;          /* an sss node's; its children are */
	size_t first;                   /* nodes[first .. first + sss.n) */
	bool done;                      /* got says how it ended */
	bool took;                      /* its point went into its parent's key */
	long got;                       /* the plaintext's length, or -errno */
	unsigned char plain[SSS_TREE_PLAIN_MAX];   /* the root's goes to the tree's out */
};

struct sss_tree {
	struct sss_tree_node *nodes;    /* nodes[0] is the root; each level after the one above */
	size_t n;
	const char *what;               /* names the root in reports */
	unsigned char *out;             /* the root's plaintext */
	size_t size;
};

/* Read the tree of the sss JWE root (kept by the caller until
 * sss_tree_free); its plaintext will go to out (at most size bytes).
 * Returns 0 or -ENOMEM. */
int sss_tree_build(struct sss_tree *t, const struct clevis_jwe *root, const char *what,
		   unsigned char *out, size_t size);
/* The parsed JWEs freed, the plaintexts zeroed. */
void sss_tree_free(struct sss_tree *t);
/* Whether node i is still worth asking: neither it nor a node above it
 * decided. */
bool sss_tree_wanted(const struct sss_tree *t, size_t i);
/* Leaf i's answer: the plaintext's length (plain, got bytes), or -errno.
 * Each sss node above it that is now decided is opened or lost. */
void sss_tree_record(struct sss_tree *t, size_t i, long got, const unsigned char *plain);
/* Whether the root is decided: opened, or it can no longer be. */
bool sss_tree_decided(const struct sss_tree *t);
/* What names node i in reports: "WHAT: sss share 2 (sss): sss share 1 (tang)". */
void sss_tree_what(const struct sss_tree *t, size_t i, char *buf, size_t size);
/* The root's plaintext length, used saying which shares opened it ("sss
 * (tpm2, sss (tang))"); or -errno (-EINVAL its header is not sss's,
 * -ENOKEY too few shares, -EBADMSG they do not decrypt it, -E2BIG), once
 * each sss node that failed on the way said why on report, deepest first
 * (the leaves said theirs when asked). */
long sss_tree_result(const struct sss_tree *t, FILE *report, char *used, size_t used_size);

#endif
