/*
 * sh -c SCRIPT / sh FILE ARG...: run shell text in a new shell, as one command (so `time sh -c
 * 'for ...'` times a loop, and a script file can be run like any command).
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "internal.h"

#define SH_FILE_MAX (1 << 20)

static char *read_script(const char *path, size_t *len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	char *buf;
	ssize_t n;

	if (IS_ERR(f)) {
		sh_operand_error("sh", NULL, path, (int)PTR_ERR(f));
		return NULL;
	}
	buf = kvmalloc(SH_FILE_MAX + 1, GFP_KERNEL); /* pieces will do: no order-9 block needed */
	if (!buf) {
		fput(f);
		sh_error("sh", "%s", errstr(-ENOMEM));
		return NULL;
	}
	*len = 0;
	while (*len <= SH_FILE_MAX && (n = file_read(f, buf + *len, SH_FILE_MAX + 1 - *len)) > 0)
		*len += (size_t)n;
	fput(f);
	if (n >= 0 && *len > SH_FILE_MAX)
		n = -EFBIG; /* refused whole: running the first 1 MiB of it could do anything */
	if (n < 0) {
		sh_operand_error("sh", NULL, path, (int)n);
		kvfree(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

static int cmd_sh(int argc, char **argv)
{
	struct shell *sh;
	char *src, *owned = NULL;
	size_t len;
	int status;

	int first_arg;

	if (argc >= 3 && !strcmp(argv[1], "-c")) {
		src = argv[2];
		len = strlen(src);
		first_arg = 4; /* sh -c SCRIPT NAME ARG...: NAME is $0 */
	} else if (argc >= 2 && argv[1][0] != '-') {
		first_arg = 2;
		src = owned = read_script(argv[1], &len);
		if (!src)
			return 127;
	} else {
		return sh_usage("sh");
	}
	sh = shell_alloc();
	if (!sh) {
		kvfree(owned);
		return sh_error("sh", "%s", errstr(-ENOMEM));
	}
	if (argc > first_arg && sh_args_set(&sh->env, argc - first_arg, argv + first_arg)) {
		shell_free(sh);
		kvfree(owned);
		return sh_error("sh", "%s", errstr(-ENOMEM));
	}
	sh->task = current;
	current->shell = sh;
	status = shell_run_script(sh, src, len);
	if (signal_pending(current))
		status = sh_killed_status();
	current->shell = NULL;
	shell_free(sh);
	kvfree(owned);
	return status & 0xff;
}
DEFINE_SHELL_CMD(sh, "sh", "sh -c SCRIPT [NAME ARG...] | sh FILE [ARG...]",
		 "run shell text in a new shell ($1... are the ARGs)", cmd_sh, 0);
