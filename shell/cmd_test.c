/* test EXPR and [ EXPR ]: conditions for if and while. */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "lang/test.h"

/* File tests through the VFS: -e exists, -f regular file, -d directory, -c/-b devices, -L link. */
static bool sh_test_file(char op, const char *path)
{
	struct kstat st;
	int err = op == 'L' || op == 'h' ? vfs_lstat(path, &st) : vfs_stat(path, &st);

	if (err)
		return false;
	switch (op) {
	case 'e':
	case 'r':
	case 'w':
		return true;
	case 'f':
		return S_ISREG(st.mode);
	case 'd':
		return S_ISDIR(st.mode);
	case 'c':
		return S_ISCHR(st.mode);
	case 'b':
		return S_ISBLK(st.mode);
	case 'L':
	case 'h':
		return S_ISLNK(st.mode);
	case 's':
		return st.size > 0;
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
		 "evaluate EXPR: -n -z = != (strings), -eq -ne -lt -le -gt -ge, ! -a -o ( ), -e "
		 "FILE",
		 cmd_test, SHELL_CMD_SPECIAL);
DEFINE_SHELL_CMD(bracket, "[", "[ EXPR ]", "evaluate EXPR, like test", cmd_bracket,
		 SHELL_CMD_SPECIAL);
