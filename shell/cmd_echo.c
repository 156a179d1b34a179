/* echo [-n] [-e] [-E] ARGS: the arguments, separated by spaces. */
#include <cgwb/shell.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "escapes.h"

/* Leading options like bash's: any mix of n, e and E after a dash, until the first other word. */
static int echo_options(int argc, char **argv, bool *newline, bool *escapes)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (argv[i][strspn(argv[i] + 1, "neE") + 1])
			break;
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o == 'n')
				*newline = false;
			else
				*escapes = *o == 'e';
		}
	}
	return i;
}

static int cmd_echo(int argc, char **argv)
{
	bool newline = true, escapes = false, stop = false;
	struct strbuf sb = STRBUF_INIT;
	int i = echo_options(argc, argv, &newline, &escapes), err;

	for (int first = i; i < argc && !stop; i++) {
		if (i > first)
			sb_addc(&sb, ' ');
		if (escapes)
			stop = sh_unescape(argv[i], &sb);
		else
			sb_adds(&sb, argv[i]);
	}
	if (newline && !stop)
		sb_addc(&sb, '\n');
	err = sb.failed ? -ENOMEM : sb.len ? sh_write(sb_str(&sb), sb.len) : 0;
	sb_release(&sb);
	if (err < 0 && err != -EPIPE)
		sh_error("echo", "write error: %s", errstr(err));
	return err < 0;
}
DEFINE_SHELL_CMD(echo, "echo", "echo [-n] [-e] [ARG...]",
		 "print the arguments (-n: no newline, -e: \\n \\t \\\\ \\0NNN escapes)", cmd_echo,
		 0);
