/*
 * Here-documents (portable). `cmd <<EOF` is parsed like any redirection, with EOF as its
 * target; the body is the lines after the end of the command's line, so the parser reads
 * the bodies (in the order of the redirections) when it meets that newline, and the
 * lexer goes on after them.
 */
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include "strbuf.h"
#include "parser_internal.h"

void heredoc_expect(struct sh_parser *p, struct sh_redir *r)
{
	if (p->nheredocs == SH_MAX_HEREDOCS) {
		parse_fail(p, -EINVAL, "too many here-documents on one line");
		return;
	}
	p->heredocs[p->nheredocs++] = r;
}

/* The delimiter is the target word less its quotes; any quoting makes the body literal. */
static void heredoc_delimiter(struct sh_redir *r, struct strbuf *delim)
{
	for (const char *s = r->target->text; *s; s++) {
		if (*s == '\'' || *s == '"' || *s == '\\') {
			r->literal = true;
			if (*s != '\\' || !s[1])
				continue;
			s++;
		}
		sb_addc(delim, *s);
	}
}

/*
 * One body, from *pos: its lines up to the delimiter line (with <<- leading tabs go).
 * 0; -EAGAIN if the input ends first (an interactive shell reads more lines).
 */
static int read_body(struct sh_parser *p, struct sh_redir *r, size_t *pos)
{
	const char *src = p->lx.src;
	size_t len = p->lx.len, i = *pos, start = *pos;
	struct strbuf delim = STRBUF_INIT, body = STRBUF_INIT;
	int err = -EAGAIN;

	heredoc_delimiter(r, &delim);
	while (i < len) {
		const char *nl = memchr(src + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - src) : len;

		if (r->type == REDIR_HEREDOC_STRIP)
			while (i < end && src[i] == '\t')
				i++;
		p->lx.line++;
		if (end - i == delim.len && !memcmp(src + i, sb_str(&delim), delim.len)) {
			i = nl ? end + 1 : end;
			err = 0;
			break;
		}
		if (!nl)
			break; /* a last line without its newline: more may come */
		sb_addn(&body, src + i, end + 1 - i);
		i = end + 1;
	}
	if (!err) {
		r->body_src = src + start;
		r->body_src_len = i - start;
		/* read before, by a lookahead the parser backed out of ("name" then "(")? */
		sh_words_free(r->body);
		r->body = sh_word_alloc(sb_str(&body), body.len);
		if (!r->body || body.failed || delim.failed)
			err = -ENOMEM;
	}
	sb_release(&delim);
	sb_release(&body);
	*pos = i;
	return err;
}

void heredoc_read_bodies(struct sh_parser *p)
{
	size_t pos = p->lx.pos;

	for (int k = 0; k < p->nheredocs && !p->err; k++) {
		int err = read_body(p, p->heredocs[k], &pos);

		if (err == -EAGAIN)
			parse_fail(p, err, "here-document ends before '%.40s'",
				   p->heredocs[k]->target->text);
		else if (err)
			parse_fail(p, err, "out of memory");
	}
	p->nheredocs = 0;
	p->lx.pos = pos;
}
