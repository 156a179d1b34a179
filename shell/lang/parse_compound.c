/* Shell parser: compound commands if/while/until/for/case, { } and ( ) (portable). */
#include <cgwb/compiler.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include "parser_internal.h"

/* "COND; then BODY" after an if or elif. */
static struct sh_node *parse_if_clause(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_IF);

	if (!n)
		return NULL;
	n->cond.cond = parse_compound_list(p);
	if (!p->err && expect_word(p, "then"))
		n->cond.body = parse_compound_list(p);
	return n;
}

/* An elif chain is a list of SH_IF nodes linked through alt, built without recursion. */
static struct sh_node *parse_if(struct sh_parser *p)
{
	struct sh_node *head, *tail;

	consume(p);
	head = tail = parse_if_clause(p);
	while (tail && !p->err && at_word(p, "elif")) {
		consume(p);
		tail->cond.alt = parse_if_clause(p);
		tail = tail->cond.alt;
		if (tail)
			tail->flags |= SH_ELIF;
	}
	if (tail && !p->err && at_word(p, "else")) {
		consume(p);
		tail->cond.alt = parse_compound_list(p);
	}
	if (head && !p->err)
		expect_word(p, "fi");
	return head;
}

static struct sh_node *parse_while(struct sh_parser *p, enum sh_node_type type)
{
	struct sh_node *n = new_node(p, type);

	consume(p);
	if (!n)
		return NULL;
	n->cond.cond = parse_compound_list(p);
	if (p->err || !expect_word(p, "do"))
		return n;
	n->cond.body = parse_compound_list(p);
	if (!p->err)
		expect_word(p, "done");
	return n;
}

/* The "in word..." part of a for loop, up to and including the ; or newline after it. */
static void parse_for_words(struct sh_parser *p, struct sh_node *n)
{
	struct sh_word **tail = &n->loop.words;

	consume(p); /* "in" */
	n->loop.has_in = true;
	while (peek(p)->type == TOK_WORD) {
		*tail = sh_word_alloc(p->tok.start, p->tok.len);
		if (!*tail) {
			parse_fail(p, -ENOMEM, "out of memory");
			return;
		}
		tail = &(*tail)->next;
		consume(p);
	}
	if (peek(p)->type == TOK_SEMI || peek(p)->type == TOK_NEWLINE)
		consume(p);
	else
		unexpected(p);
}

static struct sh_node *parse_for(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_FOR);
	const struct sh_token *t;

	consume(p);
	if (!n)
		return NULL;
	t = peek(p);
	if (t->type != TOK_WORD || t->quoted || !sh_is_name(t->start, t->len)) {
		if (t->type == TOK_WORD)
			parse_fail(p, -EINVAL, "bad for loop variable '%.*s'",
				   (int)min_t(size_t, t->len, 40), t->start);
		else
			unexpected(p);
		return n;
	}
	n->loop.var = kstrndup(t->start, t->len, GFP_KERNEL);
	if (!n->loop.var)
		parse_fail(p, -ENOMEM, "out of memory");
	consume(p);
	skip_newlines(p);
	if (at_word(p, "in"))
		parse_for_words(p, n);
	else if (peek(p)->type == TOK_SEMI)
		consume(p);
	skip_newlines(p);
	if (p->err || !expect_word(p, "do"))
		return n;
	n->loop.body = parse_compound_list(p);
	if (!p->err)
		expect_word(p, "done");
	return n;
}

/* One WORD token as a word, or a syntax error. */
static struct sh_word *take_one_word(struct sh_parser *p)
{
	struct sh_word *w;

	if (peek(p)->type != TOK_WORD) {
		unexpected(p);
		return NULL;
	}
	w = sh_word_alloc(p->tok.start, p->tok.len);
	if (!w)
		parse_fail(p, -ENOMEM, "out of memory");
	consume(p);
	return w;
}

/* "[(]pat[|pat]...) [list] ;;" (the ;; may be left out before esac). */
static struct sh_node *parse_case_item(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_CASE_ITEM);
	struct sh_word **tail;

	if (!n)
		return NULL;
	tail = &n->item.patterns;
	if (peek(p)->type == TOK_LPAREN)
		consume(p);
	for (;;) {
		*tail = take_one_word(p);
		if (!*tail)
			return n;
		tail = &(*tail)->next;
		if (peek(p)->type != TOK_PIPE)
			break;
		consume(p);
	}
	if (peek(p)->type != TOK_RPAREN) {
		unexpected(p);
		return n;
	}
	consume(p);
	skip_newlines(p);
	if (peek(p)->type != TOK_DSEMI && !at_word(p, "esac"))
		n->item.body = parse_compound_list(p);
	if (!p->err && peek(p)->type == TOK_DSEMI)
		consume(p);
	else if (!p->err && !at_word(p, "esac"))
		unexpected(p);
	skip_newlines(p);
	return n;
}

static struct sh_node *parse_case(struct sh_parser *p)
{
	struct sh_node *n = new_node(p, SH_CASE);
	struct sh_node **tail;

	consume(p);
	if (!n)
		return NULL;
	n->kase.word = take_one_word(p);
	skip_newlines(p);
	if (p->err || !expect_word(p, "in"))
		return n;
	skip_newlines(p);
	tail = &n->kase.items;
	while (!p->err && !at_word(p, "esac")) {
		*tail = parse_case_item(p);
		if (!*tail)
			return n;
		tail = &(*tail)->next;
	}
	if (!p->err)
		consume(p);
	return n;
}

static struct sh_node *parse_group(struct sh_parser *p, bool subshell)
{
	struct sh_node *n = new_node(p, subshell ? SH_SUBSHELL : SH_BRACE);

	consume(p);
	if (!n)
		return NULL;
	n->body = parse_compound_list(p);
	if (p->err)
		return n;
	if (!subshell)
		expect_word(p, "}");
	else if (peek(p)->type == TOK_RPAREN)
		consume(p);
	else
		unexpected(p);
	return n;
}

static struct sh_node *parse_compound_body(struct sh_parser *p)
{
	if (peek(p)->type == TOK_LPAREN)
		return parse_group(p, true);
	if (at_word(p, "{"))
		return parse_group(p, false);
	if (at_word(p, "if"))
		return parse_if(p);
	if (at_word(p, "while"))
		return parse_while(p, SH_WHILE);
	if (at_word(p, "until"))
		return parse_while(p, SH_UNTIL);
	if (at_word(p, "case"))
		return parse_case(p);
	return parse_for(p);
}

/* A compound command and the redirections after it ("done > log"). */
struct sh_node *parse_compound(struct sh_parser *p)
{
	struct sh_mark start = mark(p);
	struct sh_redir **tail;
	struct sh_node *n;

	if (++p->depth > SH_MAX_NESTING) {
		parse_fail(p, -EINVAL, "too deeply nested");
		p->depth--;
		return NULL;
	}
	n = parse_compound_body(p);
	p->depth--;
	if (!n)
		return NULL;
	tail = &n->redirs;
	while (!p->err && peek(p)->type == TOK_REDIR)
		parse_redirect(p, &tail);
	set_span(p, n, start);
	return n;
}

/*
 * "name() compound-command": the parser has consumed the name and the "(". POSIX allows
 * any compound command as the body; a brace group is what scripts use.
 */
struct sh_node *parse_funcdef(struct sh_parser *p, const struct sh_token *name, struct sh_mark start)
{
	struct sh_node *n = new_node(p, SH_FUNCDEF);

	if (!n)
		return NULL;
	n->func.name = kstrndup(name->start, name->len, GFP_KERNEL);
	if (!n->func.name)
		parse_fail(p, -ENOMEM, "out of memory");
	if (!p->err && peek(p)->type != TOK_RPAREN)
		unexpected(p);
	if (p->err)
		return n;
	consume(p);
	skip_newlines(p);
	if (peek(p)->type == TOK_LPAREN || at_word(p, "{") || at_word(p, "if") ||
	    at_word(p, "while") || at_word(p, "until") || at_word(p, "for") || at_word(p, "case"))
		n->func.body = parse_compound(p);
	else
		unexpected(p);
	set_span(p, n, start);
	return n;
}
