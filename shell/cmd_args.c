/*
 * The skeleton the commands share: their options, getopt-style; their operands, one call
 * each; and coreutils' messages for what goes wrong on the way. Written once, so that
 * every command says "invalid option" and "missing operand" the same way.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

/* What getopt reports after a bad option: the message, then the usage line. */
static int bad_option(const char *cmd, const char *what, char opt)
{
	sh_err("%s: %s -- '%c'\n", cmd, what, opt);
	sh_usage(cmd);
	return '?';
}

int sh_getopt(struct sh_getopt *g, int argc, char **argv, const char *optstring)
{
	const char *spec;
	char c;

	if (!g->ind)
		g->ind = 1; /* argv[0] is the command's name */
	if (!g->next || !*g->next) {
		const char *a = g->ind < argc ? argv[g->ind] : NULL;

		if (!a || a[0] != '-' || !a[1])
			return 0; /* an operand, "-" (standard input) or the end */
		g->ind++;
		if (!strcmp(a, "--"))
			return 0;
		g->next = a + 1;
	}
	c = *g->next++;
	spec = c != ':' ? strchr(optstring, c) : NULL;
	if (!spec)
		return bad_option(argv[0], "invalid option", c);
	g->arg = NULL;
	if (spec[1] != ':')
		return c;
	/* the value is the rest of this word ("-d,") or the next word ("-d ,") */
	if (*g->next)
		g->arg = g->next;
	else if (g->ind < argc)
		g->arg = argv[g->ind++];
	else
		return bad_option(argv[0], "option requires an argument", c);
	g->next = NULL;
	return c;
}

int sh_flags(int argc, char **argv, const char *allowed, u64 *flags)
{
	struct sh_getopt g = { 0 };
	int c;

	*flags = 0;
	while ((c = sh_getopt(&g, argc, argv, allowed)) > 0) {
		if (c == '?')
			return -1;
		*flags |= SH_OPT(c);
	}
	return g.ind;
}

int sh_missing_operand(const char *cmd, const char *what)
{
	sh_err("%s: missing %s\n", cmd, what);
	return sh_usage(cmd);
}

int sh_operand_error(const char *cmd, const char *doing, const char *operand, int err)
{
	if (!doing)
		return sh_error(cmd, "%s: %s", operand, errstr(err));
	return sh_error(cmd, "%s '%s': %s", doing, operand, errstr(err));
}

int sh_for_each_operand(int argc, char **argv, int first, sh_operand_fn *one, void *ctx)
{
	int status = 0;

	for (int i = first; i < argc && !signal_pending(current); i++) {
		int s = one(argv[i], ctx);

		if (s > status)
			status = s;
	}
	return signal_pending(current) ? SH_STATUS_KILLED : status;
}

int sh_for_each_input(int argc, char **argv, int first, sh_operand_fn *one, void *ctx)
{
	static char stdin_name[] = "-";
	char *none[] = { stdin_name };

	if (first < argc)
		return sh_for_each_operand(argc, argv, first, one, ctx);
	return sh_for_each_operand(1, none, 0, one, ctx);
}

int sh_operands_main(int argc, char **argv, const char *allowed, const char *missing,
		     sh_operand_fn *one)
{
	u64 flags;
	int first = sh_flags(argc, argv, allowed, &flags);

	if (first < 0)
		return 2;
	if (first == argc)
		return sh_missing_operand(argv[0], missing);
	return sh_for_each_operand(argc, argv, first, one, &flags);
}
