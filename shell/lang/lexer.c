/* Shell tokenizer (portable). */
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "lexer.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r'; /* "\r\n" scripts behave like "\n" ones */
}

static bool is_meta(char c)
{
	return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' ||
	       c == '>' || c == '(' || c == ')';
}

void sh_lexer_init(struct sh_lexer *lx, const char *src, size_t len)
{
	lx->src = src;
	lx->len = len;
	lx->pos = 0;
	lx->line = 1;
	lx->msg = NULL;
}

int sh_scan_squote(const char *s, size_t len, size_t *pos)
{
	const char *end = memchr(s + *pos + 1, '\'', len - *pos - 1);

	if (!end)
		return -EAGAIN;
	*pos = (size_t)(end - s) + 1;
	return 0;
}

int sh_scan_backquote(const char *s, size_t len, size_t *pos)
{
	for (size_t i = *pos + 1; i < len; i++) {
		if (s[i] == '\\') {
			i++;
		} else if (s[i] == '`') {
			*pos = i + 1;
			return 0;
		}
	}
	return -EAGAIN;
}

/* Inside double quotes only \, $ and ` are special (and " ends them). */
int sh_scan_dquote(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos + 1;
	int err;

	while (i < len) {
		switch (s[i]) {
		case '"':
			*pos = i + 1;
			return 0;
		case '\\':
			i += 2;
			break;
		case '$':
			err = sh_scan_dollar(s, len, &i);
			if (err)
				return err;
			break;
		case '`':
			err = sh_scan_backquote(s, len, &i);
			if (err)
				return err;
			break;
		default:
			i++;
		}
	}
	return -EAGAIN;
}

/* Any quoted or substituted piece starting at s[*i]; false if s[*i] is plain. */
static bool scan_nested(const char *s, size_t len, size_t *i, int *err)
{
	switch (s[*i]) {
	case '\\':
		/* a trailing "\<newline>" continues on a line not read yet */
		*i += 2;
		*err = *i > len || (*i == len && s[len - 1] == '\n') ? -EAGAIN : 0;
		return true;
	case '\'':
		*err = sh_scan_squote(s, len, i);
		return true;
	case '"':
		*err = sh_scan_dquote(s, len, i);
		return true;
	case '`':
		*err = sh_scan_backquote(s, len, i);
		return true;
	case '$':
		*err = sh_scan_dollar(s, len, i);
		return true;
	}
	return false;
}

/* ${...}: up to the matching brace, skipping quoted and nested parts. */
static int scan_braces(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos + 2;
	int err = 0;

	while (i < len) {
		if (scan_nested(s, len, &i, &err)) {
			if (err)
				return err;
		} else if (s[i] == '}') {
			*pos = i + 1;
			return 0;
		} else {
			i++;
		}
	}
	return -EAGAIN;
}

/*
 * $(...) and $((...)): up to the matching parenthesis. The inside is a whole program; this
 * is not a full parse, but quotes, nested substitutions and comments are respected, which
 * is what decides where the substitution ends.
 */
static int scan_parens(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos + 2;
	int depth = 1, err = 0;

	while (i < len) {
		char c = s[i];

		if (scan_nested(s, len, &i, &err)) {
			if (err)
				return err;
			continue;
		}
		if (c == '#' && (is_blank(s[i - 1]) || s[i - 1] == '\n')) {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		i++;
		if (c == '(') {
			depth++;
		} else if (c == ')' && --depth == 0) {
			*pos = i;
			return 0;
		}
	}
	return -EAGAIN;
}

int sh_scan_dollar(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos + 1;

	if (i >= len) {
		*pos = i;
		return 0;
	}
	if (s[i] == '{')
		return scan_braces(s, len, pos);
	if (s[i] == '(')
		return scan_parens(s, len, pos);
	if (sh_is_name_start(s[i])) {
		while (i < len && sh_is_name_char(s[i]))
			i++;
	} else if (sh_is_digit(s[i]) || strchr("?$!#@*-", s[i])) {
		i++;
	}
	*pos = i;
	return 0;
}

static int scan_word(struct sh_lexer *lx, struct sh_token *tok)
{
	const char *s = lx->src;
	size_t i = lx->pos;
	int err = 0;

	tok->type = TOK_WORD;
	while (i < lx->len && !is_meta(s[i])) {
		char c = s[i];

		if (c == '\\' || c == '\'' || c == '"')
			tok->quoted = true;
		if (!scan_nested(s, lx->len, &i, &err))
			i++;
		else if (err)
			return err;
	}
	if (i > lx->len)
		return -EAGAIN;
	for (size_t k = lx->pos; k < i; k++)
		if (s[k] == '\n')
			lx->line++;
	tok->len = i - lx->pos;
	lx->pos = i;
	return 0;
}

static int lex_redir(struct sh_lexer *lx, struct sh_token *tok, size_t i)
{
	const char *s = lx->src;
	char c = s[i++], n = i < lx->len ? s[i] : '\0';

	tok->type = TOK_REDIR;
	if (c == '<') {
		if (n == '<') {
			bool strip = i + 1 < lx->len && s[i + 1] == '-';

			tok->redir = strip ? REDIR_HEREDOC_STRIP : REDIR_HEREDOC;
			i += 1 + strip;
			tok->len = i - lx->pos;
			lx->pos = i;
			return 0;
		}
		tok->redir = n == '&' ? REDIR_DUP_IN : n == '>' ? REDIR_RDWR : REDIR_IN;
		i += n == '&' || n == '>';
	} else {
		tok->redir = n == '>' ? REDIR_APPEND : n == '&' ? REDIR_DUP_OUT : REDIR_OUT;
		i += n == '>' || n == '&' || n == '|';
	}
	tok->len = i - lx->pos;
	lx->pos = i;
	return 0;
}

/* Two-character operators: && || ;; */
static void lex_op(struct sh_lexer *lx, struct sh_token *tok, enum sh_tok_type one,
		   enum sh_tok_type two)
{
	const char *s = lx->src + lx->pos;
	bool doubled = lx->pos + 1 < lx->len && s[1] == s[0];

	tok->type = doubled ? two : one;
	tok->len = doubled ? 2 : 1;
	lx->pos += tok->len;
}

/* Blanks, comments and line continuations between tokens. */
static int skip_space(struct sh_lexer *lx)
{
	const char *s = lx->src;

	while (lx->pos < lx->len) {
		char c = s[lx->pos];

		if (is_blank(c)) {
			lx->pos++;
		} else if (c == '\\' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '\n') {
			lx->pos += 2;
			lx->line++;
			if (lx->pos == lx->len)
				return -EAGAIN; /* the line goes on in input not read yet */
		} else if (c == '#') {
			while (lx->pos < lx->len && s[lx->pos] != '\n')
				lx->pos++;
		} else {
			break;
		}
	}
	return 0;
}

/* Digits right before < or > are the fd of a redirection ("2>", "1>&2"). */
static size_t io_number_len(const struct sh_lexer *lx)
{
	size_t i = lx->pos;

	while (i < lx->len && sh_is_digit(lx->src[i]))
		i++;
	if (i == lx->pos || i - lx->pos > 2 || i >= lx->len)
		return 0;
	return lx->src[i] == '<' || lx->src[i] == '>' ? i - lx->pos : 0;
}

/* Newline and the operators; false if the input does not start with one. */
static bool lex_operator(struct sh_lexer *lx, struct sh_token *tok, int *err)
{
	switch (lx->src[lx->pos]) {
	case '\n':
		tok->type = TOK_NEWLINE;
		tok->len = 1;
		lx->pos++;
		lx->line++;
		return true;
	case ';':
		lex_op(lx, tok, TOK_SEMI, TOK_DSEMI);
		return true;
	case '&':
		lex_op(lx, tok, TOK_AMP, TOK_AND_IF);
		return true;
	case '|':
		lex_op(lx, tok, TOK_PIPE, TOK_OR_IF);
		return true;
	case '(':
	case ')':
		tok->type = lx->src[lx->pos] == '(' ? TOK_LPAREN : TOK_RPAREN;
		tok->len = 1;
		lx->pos++;
		return true;
	case '<':
	case '>':
		*err = lex_redir(lx, tok, lx->pos);
		return true;
	}
	return false;
}

int sh_lex(struct sh_lexer *lx, struct sh_token *tok)
{
	int err = skip_space(lx);
	size_t nd;

	tok->start = lx->src + lx->pos;
	tok->len = 0;
	tok->line = lx->line;
	tok->quoted = false;
	tok->fd = -1;
	if (err)
		return err;
	if (lx->pos >= lx->len) {
		tok->type = TOK_EOF;
		return 0;
	}
	if (lex_operator(lx, tok, &err))
		return err;
	nd = io_number_len(lx);
	if (nd) {
		int fd = 0;

		for (size_t k = 0; k < nd; k++)
			fd = fd * 10 + (lx->src[lx->pos + k] - '0');
		err = lex_redir(lx, tok, lx->pos + nd);
		tok->fd = fd;
		return err;
	}
	return scan_word(lx, tok);
}

bool sh_is_name(const char *s, size_t len)
{
	if (!len || !sh_is_name_start(s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!sh_is_name_char(s[i]))
			return false;
	return true;
}

size_t sh_assignment_name_len(const char *word, size_t len)
{
	const char *eq = memchr(word, '=', len);

	if (!eq || !sh_is_name(word, (size_t)(eq - word)))
		return 0;
	return (size_t)(eq - word);
}
