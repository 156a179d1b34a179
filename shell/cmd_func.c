/* Commands for functions and positional parameters: shift, local, return. */
#include <cgwb/slab.h>
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "lang/lexer.h"

static int cmd_shift(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int n = 1;

	if (!sh)
		return 1;
	if (argc > 2 || (argc == 2 && (kstrtoint(argv[1], 10, &n) || n < 0)))
		return sh_error("shift", "Illegal number: %s", argv[argc - 1]);
	if (n > sh->env.argc)
		return sh_error("shift", "can't shift that many");
	for (int i = 0; i < n; i++)
		kfree(sh->env.argv[i]);
	memmove(sh->env.argv, sh->env.argv + n, (size_t)(sh->env.argc - n + 1) * sizeof(char *));
	sh->env.argc -= n;
	return 0;
}
DEFINE_SHELL_CMD(shift, "shift", "shift [N]", "drop the first N (1) positional parameters",
		 cmd_shift, SHELL_CMD_SPECIAL);

/* local NAME[=VALUE]...: the names get their old values back when the function returns. */
static int cmd_local(int argc, char **argv)
{
	struct shell *sh = current_shell();

	if (!sh)
		return 1;
	if (!sh->func_depth)
		return sh_error("local", "not in a function");
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		char name[64];
		int err;

		if (!sh_is_name(argv[i], len) || len >= sizeof(name))
			return sh_error("local", "'%s': not a valid identifier", argv[i]);
		memcpy(name, argv[i], len);
		name[len] = '\0';
		err = sh_local(sh, name);
		if (!err && eq)
			err = sh_var_set(&sh->vars, name, eq + 1, 0);
		if (err)
			return sh_operand_error("local", NULL, name, err);
	}
	return 0;
}
DEFINE_SHELL_CMD(local, "local", "local NAME[=VALUE]...",
		 "make variables local to the running function", cmd_local, SHELL_CMD_SPECIAL);

static int cmd_return(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int code;

	if (!sh)
		return 1;
	code = sh->status;
	if (argc > 2 || (argc == 2 && kstrtoint(argv[1], 10, &code)))
		return sh_error("return", "Illegal number: %s", argv[argc - 1]);
	if (!sh->func_depth)
		return sh_error("return", "not in a function");
	sh->returning = true;
	return code & 0xff;
}
DEFINE_SHELL_CMD(return, "return", "return [N]", "leave the running function with status N",
		       cmd_return, SHELL_CMD_SPECIAL);
