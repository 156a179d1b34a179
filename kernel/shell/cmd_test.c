/* test EXPR and [ EXPR ]: conditions for if and while. */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "lang/test.h"

/*
 * File tests. Only /dev exists until the VFS does: a path that opens exists; the devices
 * are character devices. -f and -d need the VFS's file types: false for now.
 */
static bool sh_test_file(char op, const char *path)
{
	struct file *f;

	switch (op) {
	case 'e': case 'r': case 'w': case 'c':
		f = filp_open(path, op == 'w' ? O_WRONLY : O_RDONLY, 0);
		if (IS_ERR(f))
			return false;
		fput(f);
		return op != 'c' || str_has_prefix(path, "/dev/");
	default:
		return false;
	}
}

static int run_test(const char *name, int argc, char **argv)
{
	char err[96];
	int status = sh_test(argc, argv, sh_test_file, err, sizeof(err));

	if (status == 2)
		sh_error(name, "%s", err);
	return status;
}

static int cmd_test(int argc, char **argv)
{
	return run_test("test", argc - 1, argv + 1);
}

static int cmd_bracket(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[argc - 1], "]")) {
		sh_error("[", "missing ']'");
		return 2;
	}
	return run_test("[", argc - 2, argv + 1);
}

/* Run in the shell's task: a loop condition should not cost a task per round. */
DEFINE_SHELL_CMD(test, "test", "test EXPR",
		 "evaluate EXPR: -n -z = != (strings), -eq -ne -lt -le -gt -ge, ! -a -o ( ), -e FILE",
		 cmd_test, SHELL_CMD_SPECIAL);
DEFINE_SHELL_CMD(bracket, "[", "[ EXPR ]", "evaluate EXPR, like test", cmd_bracket,
		 SHELL_CMD_SPECIAL);
