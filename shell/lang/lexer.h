/*
 * Shell tokens (POSIX "Token Recognition"). A word keeps its raw text, quotes and all:
 * quote removal and expansion happen later, when the command runs (expand.c), so the
 * lexer only has to find where each word ends.
 */
#ifndef CGWB_SHELL_LEXER_H
#define CGWB_SHELL_LEXER_H

#include <cgwb/types.h>

enum sh_tok_type {
	TOK_EOF,
	TOK_WORD,
	TOK_NEWLINE,
	TOK_SEMI,   /* ; */
	TOK_AMP,    /* & */
	TOK_AND_IF, /* && */
	TOK_OR_IF,  /* || */
	TOK_PIPE,   /* | */
	TOK_LPAREN, /* ( */
	TOK_RPAREN, /* ) */
	TOK_DSEMI,  /* ;; (ends a case item) */
	TOK_REDIR,  /* [n]< [n]> [n]>> [n]<& [n]>& [n]<> [n]>| [n]<< [n]<<- */
};

enum sh_redir_type {
	REDIR_IN,            /* <  */
	REDIR_OUT,           /* >, >| */
	REDIR_APPEND,        /* >> */
	REDIR_DUP_IN,        /* <& */
	REDIR_DUP_OUT,       /* >& */
	REDIR_RDWR,          /* <> */
	REDIR_HEREDOC,       /* <<word: the lines after the command, up to "word" */
	REDIR_HEREDOC_STRIP, /* <<-word: the same, leading tabs removed */
};

struct sh_token {
	enum sh_tok_type type;
	const char *start; /* the token's text in the source */
	size_t len;
	unsigned int line;
	bool quoted; /* WORD with quotes or backslashes: never a reserved word */
	int fd;      /* REDIR: the explicit fd number, or -1 */
	enum sh_redir_type redir;
};

struct sh_lexer {
	const char *src;
	size_t len;
	size_t pos;
	unsigned int line;
	const char *msg; /* why the last token failed (-EINVAL) */
};

void sh_lexer_init(struct sh_lexer *lx, const char *src, size_t len);
/* 0 and the next token; -EAGAIN if the input ends inside one (open quote, trailing "\"). */
int sh_lex(struct sh_lexer *lx, struct sh_token *tok);

/*
 * Scanners shared with the expander. Each starts with *pos on the opening character and
 * moves it past the closing one: 0, or -EAGAIN if the input ends first.
 */
int sh_scan_squote(const char *s, size_t len, size_t *pos);
int sh_scan_dquote(const char *s, size_t len, size_t *pos);
int sh_scan_backquote(const char *s, size_t len, size_t *pos);
/* $name, ${...}, $(...), $((...)) and $?-style specials; a lone "$" is one character. */
int sh_scan_dollar(const char *s, size_t len, size_t *pos);

static inline bool sh_is_name_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool sh_is_name_char(char c)
{
	return sh_is_name_start(c) || (c >= '0' && c <= '9');
}

static inline bool sh_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A valid variable name: [A-Za-z_][A-Za-z0-9_]* */
bool sh_is_name(const char *s, size_t len);
/* Length of "NAME" in a word "NAME=...", or 0 if the word is not an assignment. */
size_t sh_assignment_name_len(const char *word, size_t len);

#endif
