/* Commands that change the shell itself: exit, export, set, unset, break, continue, :, true,
 * false. */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "lang/lexer.h"

static int cmd_exit(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int code;

	if (!sh)
		return 1;
	if (argc > 2)
		return sh_error("exit", "too many arguments");
	code = sh->status;
	if (argc == 2 && kstrtoint(argv[1], 10, &code)) {
		sh_error("exit", "%s: numeric argument required", argv[1]);
		code = 2;
	}
	sh->exiting = true;
	sh->exit_status = code & 0xff;
	return code & 0xff;
}
DEFINE_SHELL_CMD(exit, "exit", "exit [N]", "leave the shell (or script) with status N", cmd_exit,
		 SHELL_CMD_SPECIAL);

/* NAME='value', quoted so the shell reads it back unchanged. */
static void print_assignment(const char *prefix, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s%s='", prefix, name);
	for (const char *p = value; *p; p++) {
		if (*p == '\'')
			sb_adds(&sb, "'\\''");
		else
			sb_addc(&sb, *p);
	}
	sb_adds(&sb, "'\n");
	sh_write(sb_str(&sb), sb.len);
	sb_release(&sb);
}

static int cmd_export(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int status = 0;

	if (!sh)
		return 1;
	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "-p"))) {
		for (struct sh_var *v = sh->vars.head; v; v = v->next)
			if (v->flags & SH_VAR_EXPORT)
				print_assignment("export ", v->name, v->value);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		int err;

		if (eq) {
			*eq = '\0';
			err = sh_var_set(&sh->vars, argv[i], eq + 1, SH_VAR_EXPORT);
		} else {
			err = sh_var_export(&sh->vars, argv[i]);
		}
		if (err == -EINVAL)
			status = sh_error("export", "%s: not a valid identifier", argv[i]);
		else if (err)
			status = sh_operand_error("export", NULL, argv[i], err);
	}
	return status;
}
DEFINE_SHELL_CMD(export, "export", "export [NAME[=VALUE]...]",
		 "set shell variables (no arguments: list the exported ones)", cmd_export,
		 SHELL_CMD_SPECIAL);

static int cmd_set(int argc, char **argv)
{
	struct shell *sh = current_shell();

	if (!sh)
		return 1;
	/* set -- ARG...: the positional parameters ("set --" alone clears them) */
	if (argc > 1 && !strcmp(argv[1], "--")) {
		int err = sh_args_set(&sh->env, argc - 2, argv + 2);

		return err ? sh_error("set", "%s", errstr(err)) : 0;
	}
	if (argc > 1)
		return sh_usage("set");
	for (struct sh_var *v = sh->vars.head; v; v = v->next)
		print_assignment("", v->name, v->value);
	return 0;
}
DEFINE_SHELL_CMD(set, "set", "set [-- ARG...]",
		 "list the shell variables, or set the positional parameters", cmd_set,
		 SHELL_CMD_SPECIAL);

static int cmd_unset(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int status = 0;

	if (!sh)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			continue;
		if (!sh_is_name(argv[i], strlen(argv[i])))
			status = sh_error("unset", "%s: not a valid identifier", argv[i]);
		else
			sh_var_unset(&sh->vars, argv[i]);
	}
	return status;
}
DEFINE_SHELL_CMD(unset, "unset", "unset NAME...", "remove shell variables", cmd_unset,
		 SHELL_CMD_SPECIAL);

/* break [N] and continue [N]: leave (or restart) the N-th enclosing loop. */
static int loop_control(int argc, char **argv, bool is_break)
{
	struct shell *sh = current_shell();
	int n = 1;

	if (!sh)
		return 1;
	if (argc > 2)
		return sh_usage(argv[0]);
	if (argc == 2 && (kstrtoint(argv[1], 10, &n) || n < 1))
		return sh_error(argv[0], "%s: loop count out of range", argv[1]);
	if (!sh->loop_depth)
		return 0; /* outside a loop, as in sh: nothing to do */
	n = min(n, sh->loop_depth);
	if (is_break)
		sh->breaks = n;
	else
		sh->continues = n;
	return 0;
}

static int cmd_break(int argc, char **argv)
{
	return loop_control(argc, argv, true);
}
DEFINE_SHELL_CMD(break, "break", "break [N]", "leave the innermost (or N-th) loop", cmd_break,
		 SHELL_CMD_SPECIAL);

static int cmd_continue(int argc, char **argv)
{
	return loop_control(argc, argv, false);
}
DEFINE_SHELL_CMD(continue, "continue", "continue [N]",
		 "go on with the next round of the innermost (or N-th) loop", cmd_continue,
		 SHELL_CMD_SPECIAL);

/* Status only: cheap enough to run in the shell's task, which keeps loops fast. */
static int cmd_true(int argc, char **argv)
{
	return 0;
}
DEFINE_SHELL_CMD(true, "true", "true", "do nothing, successfully", cmd_true, SHELL_CMD_SPECIAL);
DEFINE_SHELL_CMD(colon, ":", ": [ARGS]", "do nothing, successfully (arguments are expanded)",
		 cmd_true, SHELL_CMD_SPECIAL);

static int cmd_false(int argc, char **argv)
{
	return 1;
}
DEFINE_SHELL_CMD(false, "false", "false", "do nothing, unsuccessfully", cmd_false, SHELL_CMD_SPECIAL);
