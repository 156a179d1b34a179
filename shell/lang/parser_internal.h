/* Shared between the parser's files: token access and the grammar's entry points. */
#ifndef CGWB_SHELL_PARSER_INTERNAL_H
#define CGWB_SHELL_PARSER_INTERNAL_H

#include "parser.h"

const struct sh_token *peek(struct sh_parser *p);
void consume(struct sh_parser *p);
void parse_fail(struct sh_parser *p, int err, const char *fmt, ...) __printf(3, 4);
/* A syntax error at the lookahead ("unexpected X"), or -EAGAIN at the end of input. */
void unexpected(struct sh_parser *p);
/* The lookahead is this reserved word (unquoted, whole word). */
bool at_word(struct sh_parser *p, const char *word);
/* Consume the reserved word or fail. */
bool expect_word(struct sh_parser *p, const char *word);
void skip_newlines(struct sh_parser *p);
/* Where a node's source starts: kept small, every nesting level holds a few. */
struct sh_mark {
	const char *at;
	unsigned int line;
};
/* The start of the lookahead token. */
struct sh_mark mark(struct sh_parser *p);
/* Give node the source span from start to the last consumed token. */
void set_span(struct sh_parser *p, struct sh_node *node, struct sh_mark start);
struct sh_node *new_node(struct sh_parser *p, enum sh_node_type type);

struct sh_node *parse_compound_list(struct sh_parser *p);
struct sh_node *parse_compound(struct sh_parser *p);
bool parse_redirect(struct sh_parser *p, struct sh_redir ***tail);
/* parse_heredoc.c: a << redirection waits for its body, read after the line's newline. */
void heredoc_expect(struct sh_parser *p, struct sh_redir *r);
void heredoc_read_bodies(struct sh_parser *p);
/* After "name (": the rest of a function definition. */
struct sh_node *parse_funcdef(struct sh_parser *p, const struct sh_token *name, struct sh_mark start);

#endif
