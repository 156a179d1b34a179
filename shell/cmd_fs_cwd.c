/* cd [DIR] and pwd: the shell's own working directory (commands start in a copy of it). */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"

static int cmd_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/";
	int err;

	if (argc > 2) {
		sh_err("cgwb: cd: too many arguments\n");
		return 1;
	}
	err = set_fs_pwd(dir);
	if (err) {
		sh_err("cgwb: cd: %s: %s\n", dir, errstr(err));
		return 1;
	}
	return 0;
}
DEFINE_SHELL_CMD(cd, "cd", "cd [DIR]", "change the working directory (default /)", cmd_cd,
		 SHELL_CMD_SPECIAL);

static int cmd_pwd(int argc, char **argv)
{
	struct path pwd;
	char *buf;
	int err;

	(void)argc;
	(void)argv;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return sh_error("pwd", "%s", errstr(-ENOMEM));
	get_fs_pwd(&pwd);
	err = d_path(&pwd, buf, PATH_MAX);
	path_put(&pwd);
	if (!err)
		sh_out("%s\n", buf);
	else
		sh_error("pwd", "%s", errstr(err));
	kfree(buf);
	return err ? 1 : 0;
}
DEFINE_SHELL_CMD(pwd, "pwd", "pwd", "print the working directory", cmd_pwd, SHELL_CMD_SPECIAL);
