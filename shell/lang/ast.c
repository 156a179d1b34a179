/* Syntax tree nodes (portable). */
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include "ast.h"

struct sh_node *sh_node_alloc(enum sh_node_type type)
{
	struct sh_node *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (n)
		n->type = type;
	return n;
}

struct sh_word *sh_word_alloc(const char *text, size_t len)
{
	struct sh_word *w = kmalloc(sizeof(*w) + len + 1, GFP_KERNEL);

	if (!w)
		return NULL;
	w->next = NULL;
	memcpy(w->text, text, len);
	w->text[len] = '\0';
	return w;
}

void sh_words_free(struct sh_word *w)
{
	while (w) {
		struct sh_word *next = w->next;

		kfree(w);
		w = next;
	}
}

int sh_words_count(const struct sh_word *w)
{
	int n = 0;

	for (; w; w = w->next)
		n++;
	return n;
}

static void redirs_free(struct sh_redir *r)
{
	while (r) {
		struct sh_redir *next = r->next;

		sh_words_free(r->target);
		sh_words_free(r->body);
		kfree(r);
		r = next;
	}
}

static void kids_free(struct sh_node *kid)
{
	while (kid) {
		struct sh_node *next = kid->next;

		sh_node_free(kid);
		kid = next;
	}
}

/* Free what n holds besides itself; returns the elif node to go on with, if any. */
static struct sh_node *node_free_parts(struct sh_node *n)
{
	redirs_free(n->redirs);
	switch (n->type) {
	case SH_CMD:
		sh_words_free(n->cmd.assigns);
		sh_words_free(n->cmd.words);
		break;
	case SH_LIST:
	case SH_PIPE:
	case SH_ANDOR:
		kids_free(n->kids);
		break;
	case SH_BRACE:
	case SH_SUBSHELL:
		sh_node_free(n->body);
		break;
	case SH_IF:
		sh_node_free(n->cond.cond);
		sh_node_free(n->cond.body);
		if (n->cond.alt && (n->cond.alt->flags & SH_ELIF))
			return n->cond.alt;
		sh_node_free(n->cond.alt);
		break;
	case SH_WHILE:
	case SH_UNTIL:
		sh_node_free(n->cond.cond);
		sh_node_free(n->cond.body);
		break;
	case SH_CASE:
		sh_words_free(n->kase.word);
		kids_free(n->kase.items);
		break;
	case SH_CASE_ITEM:
		sh_words_free(n->item.patterns);
		sh_node_free(n->item.body);
		break;
	case SH_FUNCDEF:
		kfree(n->func.name);
		sh_node_free(n->func.body);
		break;
	case SH_FOR:
		kfree(n->loop.var);
		sh_words_free(n->loop.words);
		sh_node_free(n->loop.body);
		break;
	}
	return NULL;
}

void sh_node_free(struct sh_node *n)
{
	while (n) {
		struct sh_node *next = node_free_parts(n);

		kfree(n);
		n = next;
	}
}

static void redirs_walk(const struct sh_node *n, void (*fn)(const struct sh_redir *r, void *arg),
			void *arg)
{
	for (const struct sh_redir *r = n->redirs; r; r = r->next)
		fn(r, arg);
}

void sh_node_for_each_redir(const struct sh_node *n,
			    void (*fn)(const struct sh_redir *r, void *arg), void *arg)
{
	if (!n)
		return;
	/* a compound command's own redirections follow its body in the source */
	switch (n->type) {
	case SH_CMD:
		break;
	case SH_LIST:
	case SH_PIPE:
	case SH_ANDOR:
		for (const struct sh_node *k = n->kids; k; k = k->next)
			sh_node_for_each_redir(k, fn, arg);
		break;
	case SH_BRACE:
	case SH_SUBSHELL:
		sh_node_for_each_redir(n->body, fn, arg);
		break;
	case SH_IF:
	case SH_WHILE:
	case SH_UNTIL:
		sh_node_for_each_redir(n->cond.cond, fn, arg);
		sh_node_for_each_redir(n->cond.body, fn, arg);
		sh_node_for_each_redir(n->cond.alt, fn, arg);
		break;
	case SH_FOR:
		sh_node_for_each_redir(n->loop.body, fn, arg);
		break;
	case SH_CASE:
		for (const struct sh_node *k = n->kase.items; k; k = k->next)
			sh_node_for_each_redir(k, fn, arg);
		break;
	case SH_CASE_ITEM:
		sh_node_for_each_redir(n->item.body, fn, arg);
		break;
	case SH_FUNCDEF:
		sh_node_for_each_redir(n->func.body, fn, arg);
		break;
	}
	redirs_walk(n, fn, arg);
}
