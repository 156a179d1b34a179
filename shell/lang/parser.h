/*
 * Shell parser: POSIX grammar subset (lists, && ||, pipelines with !, simple commands with
 * assignments and redirections, if/while/until/for/case, { } and ( ) groups, name()
 * function definitions), one complete command (a list ended by a newline) at a time, so a script runs line by line like sh and
 * an interactive shell can tell when a command needs another line.
 */
#ifndef CGWB_SHELL_PARSER_H
#define CGWB_SHELL_PARSER_H

#include "ast.h"

/* Deeper nesting is refused: the shell runs on a 16 KiB kernel stack. */
#define SH_MAX_NESTING 16
/* Here-documents started on one line (their bodies follow it, in order). */
#define SH_MAX_HEREDOCS 8

struct sh_parser {
	struct sh_lexer lx;
	struct sh_token tok; /* the lookahead, when peeked */
	bool peeked;
	const char *last_end; /* end of the last consumed token */
	int depth;
	struct sh_redir *heredocs[SH_MAX_HEREDOCS]; /* waiting for their bodies */
	int nheredocs;
	int err; /* first error, sticky */
	char msg[80];
};

void sh_parser_init(struct sh_parser *p, const char *src, size_t len);
/*
 * The next complete command: 0 and *out (NULL at the end of the input); -EAGAIN if the
 * input ends inside it (an open quote or loop, a trailing && or |: more lines needed);
 * -EINVAL for a syntax error (p->msg says what); -ENOMEM. Errors are sticky.
 */
int sh_parse_next(struct sh_parser *p, struct sh_node **out);
/* Offset of the first unconsumed byte: where the next complete command starts. */
size_t sh_parser_pos(const struct sh_parser *p);
/* The line the parser is at (1-based), for error messages. */
unsigned int sh_parser_line(const struct sh_parser *p);

#endif
