/* Shell parser: tokens, lists, and-or lists, pipelines, simple commands (portable). */
#include <cgwb/compiler.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include "parser_internal.h"

void sh_parser_init(struct sh_parser *p, const char *src, size_t len)
{
	memset(p, 0, sizeof(*p));
	sh_lexer_init(&p->lx, src, len);
	p->last_end = src;
}

void parse_fail(struct sh_parser *p, int err, const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return;
	p->err = err;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
}

const struct sh_token *peek(struct sh_parser *p)
{
	if (!p->peeked) {
		int err = sh_lex(&p->lx, &p->tok);

		if (err) {
			parse_fail(p, err, "%s", p->lx.msg ? p->lx.msg : "unexpected end of file");
			p->tok.type = TOK_EOF;
		}
		p->peeked = true;
		/* The bodies of here-documents start after this newline; at the end: missing. */
		if (p->nheredocs && p->tok.type == TOK_NEWLINE)
			heredoc_read_bodies(p);
		else if (p->nheredocs && p->tok.type == TOK_EOF)
			parse_fail(p, -EAGAIN, "here-document ends before '%.40s'",
				   p->heredocs[0]->target->text);
	}
	return &p->tok;
}

void consume(struct sh_parser *p)
{
	p->last_end = p->tok.start + p->tok.len;
	p->peeked = false;
}

void unexpected(struct sh_parser *p)
{
	const struct sh_token *t = peek(p);

	if (t->type == TOK_EOF)
		parse_fail(p, -EAGAIN, "unexpected end of file");
	else if (t->type == TOK_NEWLINE)
		parse_fail(p, -EINVAL, "unexpected newline");
	else
		parse_fail(p, -EINVAL, "unexpected '%.*s'", (int)min_t(size_t, t->len, 40), t->start);
}

bool at_word(struct sh_parser *p, const char *word)
{
	const struct sh_token *t = peek(p);

	return t->type == TOK_WORD && !t->quoted && t->len == strlen(word) &&
	       !memcmp(t->start, word, t->len);
}

bool expect_word(struct sh_parser *p, const char *word)
{
	if (at_word(p, word)) {
		consume(p);
		return true;
	}
	unexpected(p);
	return false;
}

void skip_newlines(struct sh_parser *p)
{
	while (peek(p)->type == TOK_NEWLINE)
		consume(p);
}

struct sh_mark mark(struct sh_parser *p)
{
	const struct sh_token *t = peek(p);

	return (struct sh_mark){ .at = t->start, .line = t->line };
}

void set_span(struct sh_parser *p, struct sh_node *node, struct sh_mark start)
{
	node->src = start.at;
	node->src_len = (size_t)(p->last_end - start.at);
	node->line = start.line;
}

struct sh_node *new_node(struct sh_parser *p, enum sh_node_type type)
{
	struct sh_node *n = sh_node_alloc(type);

	if (!n)
		parse_fail(p, -ENOMEM, "out of memory");
	return n;
}

static struct sh_word *take_word(struct sh_parser *p)
{
	struct sh_word *w = sh_word_alloc(p->tok.start, p->tok.len);

	if (!w)
		parse_fail(p, -ENOMEM, "out of memory");
	consume(p);
	return w;
}

bool parse_redirect(struct sh_parser *p, struct sh_redir ***tail)
{
	const struct sh_token *t = peek(p);
	struct sh_redir *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r) {
		parse_fail(p, -ENOMEM, "out of memory");
		return false;
	}
	r->type = t->redir;
	r->fd = t->fd >= 0 ? t->fd :
		(t->redir == REDIR_IN || t->redir == REDIR_DUP_IN || t->redir == REDIR_RDWR ||
		 t->redir == REDIR_HEREDOC || t->redir == REDIR_HEREDOC_STRIP) ?
			     0 :
			     1;
	**tail = r;
	*tail = &r->next;
	consume(p);
	if (peek(p)->type != TOK_WORD) {
		unexpected(p);
		return false;
	}
	r->target = take_word(p);
	if (r->target && (r->type == REDIR_HEREDOC || r->type == REDIR_HEREDOC_STRIP))
		heredoc_expect(p, r);
	return r->target != NULL;
}

static struct sh_node *parse_simple(struct sh_parser *p)
{
	struct sh_mark start = mark(p);
	struct sh_node *n = new_node(p, SH_CMD);
	struct sh_word **assign_tail, **word_tail;
	struct sh_redir **redir_tail;

	if (!n)
		return NULL;
	assign_tail = &n->cmd.assigns;
	word_tail = &n->cmd.words;
	redir_tail = &n->redirs;
	for (;;) {
		const struct sh_token *t = peek(p);

		if (t->type == TOK_REDIR) {
			if (!parse_redirect(p, &redir_tail))
				break;
		} else if (t->type == TOK_WORD) {
			bool assign = !n->cmd.words && sh_assignment_name_len(t->start, t->len);
			struct sh_word **tail = assign ? assign_tail : word_tail;

			*tail = take_word(p);
			if (!*tail)
				break;
			if (assign)
				assign_tail = &(*tail)->next;
			else
				word_tail = &(*tail)->next;
		} else {
			break;
		}
	}
	if (!p->err && !n->cmd.words && !n->cmd.assigns && !n->redirs)
		unexpected(p);
	set_span(p, n, start);
	return n;
}

/*
 * "name()" starts a function definition; telling it from a command needs the token after
 * the name, so the parser looks ahead on a copy of itself and backs out if it is not "(".
 */
static struct sh_node *parse_funcdef_or_simple(struct sh_parser *p)
{
	const struct sh_token *t = peek(p);
	struct sh_mark start = mark(p);
	struct sh_parser saved;
	struct sh_token name;

	if (t->type != TOK_WORD || t->quoted || !sh_is_name(t->start, t->len))
		return parse_simple(p);
	saved = *p;
	name = *t;
	consume(p);
	if (peek(p)->type == TOK_LPAREN) {
		consume(p);
		return parse_funcdef(p, &name, start);
	}
	*p = saved;
	return parse_simple(p);
}

static struct sh_node *parse_command(struct sh_parser *p)
{
	static const char *const misplaced[] = {
		"then", "else", "elif", "fi", "do", "done", "}", "in", "esac",
	};

	for (size_t i = 0; i < ARRAY_SIZE(misplaced); i++) {
		if (at_word(p, misplaced[i])) {
			unexpected(p);
			return NULL;
		}
	}
	if (peek(p)->type == TOK_LPAREN || at_word(p, "if") || at_word(p, "while") ||
	    at_word(p, "until") || at_word(p, "for") || at_word(p, "{") || at_word(p, "case"))
		return parse_compound(p);
	return parse_funcdef_or_simple(p);
}

/* Append kid to the chain ending at *tail. */
static void add_kid(struct sh_node ***tail, struct sh_node *kid)
{
	**tail = kid;
	*tail = &kid->next;
}

static struct sh_node *parse_pipeline(struct sh_parser *p)
{
	struct sh_mark start = mark(p);
	struct sh_node *first, *pipe, **tail;
	bool negate = false;

	while (at_word(p, "!")) {
		consume(p);
		negate = !negate;
	}
	first = parse_command(p);
	if (!first || p->err || peek(p)->type != TOK_PIPE) {
		if (first && negate)
			first->flags |= SH_NEGATE;
		return first;
	}
	pipe = new_node(p, SH_PIPE);
	if (!pipe)
		return first;
	tail = &pipe->kids;
	add_kid(&tail, first);
	while (!p->err && peek(p)->type == TOK_PIPE) {
		struct sh_node *cmd;

		consume(p);
		skip_newlines(p);
		cmd = parse_command(p);
		if (!cmd)
			break;
		add_kid(&tail, cmd);
	}
	if (negate)
		pipe->flags |= SH_NEGATE;
	set_span(p, pipe, start);
	return pipe;
}

static struct sh_node *parse_and_or(struct sh_parser *p)
{
	struct sh_mark start = mark(p);
	struct sh_node *first = parse_pipeline(p), *andor, **tail;
	enum sh_tok_type t;

	if (!first || p->err)
		return first;
	t = peek(p)->type;
	if (t != TOK_AND_IF && t != TOK_OR_IF)
		return first;
	andor = new_node(p, SH_ANDOR);
	if (!andor)
		return first;
	tail = &andor->kids;
	add_kid(&tail, first);
	while (!p->err && (t = peek(p)->type, t == TOK_AND_IF || t == TOK_OR_IF)) {
		struct sh_node *next;

		consume(p);
		skip_newlines(p);
		next = parse_pipeline(p);
		if (!next)
			break;
		next->flags |= t == TOK_AND_IF ? SH_IF_OK : SH_IF_FAIL;
		add_kid(&tail, next);
	}
	set_span(p, andor, start);
	return andor;
}

/* A separator after a list item: ";" or "&" (the caller handles newlines). */
static bool take_separator(struct sh_parser *p, struct sh_node *item)
{
	enum sh_tok_type t = peek(p)->type;

	if (t != TOK_SEMI && t != TOK_AMP)
		return false;
	if (t == TOK_AMP)
		item->flags |= SH_BG;
	consume(p);
	return true;
}

/* Words that end a compound list: the next part of the enclosing compound command. */
static bool at_list_end(struct sh_parser *p)
{
	static const char *const ends[] = { "then", "else", "elif", "fi", "do", "done", "}", "esac" };
	enum sh_tok_type t = peek(p)->type;

	if (t == TOK_EOF || t == TOK_RPAREN || t == TOK_DSEMI)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
		if (at_word(p, ends[i]))
			return true;
	return false;
}

/* A lone foreground item stands for itself; otherwise a list node holds the items. */
static struct sh_node *finish_list(struct sh_parser *p, struct sh_node *list, struct sh_mark start)
{
	struct sh_node *only = list->kids;

	if (only && !only->next && !(only->flags & SH_BG)) {
		list->kids = NULL;
		sh_node_free(list);
		return only;
	}
	set_span(p, list, start);
	return list;
}

/* Inside compound commands: items separated by ; & or newlines, up to a closing word. */
struct sh_node *parse_compound_list(struct sh_parser *p)
{
	struct sh_mark start;
	struct sh_node *list, **tail;

	skip_newlines(p);
	start = mark(p);
	list = new_node(p, SH_LIST);
	if (!list)
		return NULL;
	tail = &list->kids;
	while (!p->err && !at_list_end(p)) {
		struct sh_node *item = parse_and_or(p);

		if (!item)
			break;
		add_kid(&tail, item);
		if (!take_separator(p, item) && peek(p)->type != TOK_NEWLINE)
			break;
		skip_newlines(p);
	}
	if (!p->err && !list->kids)
		unexpected(p);
	return finish_list(p, list, start);
}

/* At the top level a newline ends the command. */
static struct sh_node *parse_top_list(struct sh_parser *p)
{
	struct sh_mark start = mark(p);
	struct sh_node *list = new_node(p, SH_LIST), **tail;

	if (!list)
		return NULL;
	tail = &list->kids;
	while (!p->err) {
		struct sh_node *item = parse_and_or(p);
		enum sh_tok_type t;

		if (!item)
			break;
		add_kid(&tail, item);
		if (!take_separator(p, item))
			break;
		t = peek(p)->type;
		if (t == TOK_NEWLINE || t == TOK_EOF)
			break;
	}
	return finish_list(p, list, start);
}

int sh_parse_next(struct sh_parser *p, struct sh_node **out)
{
	struct sh_node *n;
	enum sh_tok_type t;

	*out = NULL;
	skip_newlines(p);
	if (p->err || peek(p)->type == TOK_EOF)
		return p->err;
	n = parse_top_list(p);
	t = peek(p)->type;
	if (!p->err && t == TOK_NEWLINE)
		consume(p);
	else if (!p->err && t != TOK_EOF)
		unexpected(p);
	if (p->err) {
		sh_node_free(n);
		return p->err;
	}
	*out = n;
	return 0;
}

size_t sh_parser_pos(const struct sh_parser *p)
{
	const char *at = p->peeked ? p->tok.start : p->lx.src + p->lx.pos;

	return (size_t)(at - p->lx.src);
}

unsigned int sh_parser_line(const struct sh_parser *p)
{
	return p->peeked ? p->tok.line : p->lx.line;
}
