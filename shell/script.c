/* Running shell text non-interactively, one complete command at a time, like sh. */
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "internal.h"
#include "lang/parser.h"

static void syntax_error(struct shell *sh, const struct sh_parser *p)
{
	if (p->err == -ENOMEM)
		shell_msg(NULL, "out of memory");
	else
		shell_msg(NULL, "syntax error: %s (line %u)", p->msg, sh_parser_line(p));
}

int shell_run_script(struct shell *sh, const char *src, size_t len)
{
	struct sh_parser p;

	sh_parser_init(&p, src, len);
	while (!sh_unwinding(sh)) {
		struct sh_node *n;

		/* a syntax error ends a non-interactive shell, as in sh */
		if (sh_parse_next(&p, &n)) {
			syntax_error(sh, &p);
			sh->status = 2;
			break;
		}
		if (!n)
			break;
		sh_exec(sh, n);
		sh_node_free(n);
	}
	if (sh->exiting)
		sh->status = sh->exit_status;
	return sh->status;
}
