/*
 * read [-r] NAME...: one line of stdin into variables, split on IFS (lang/read.c). It runs
 * in the shell's task (it sets the shell's variables) and reads one byte at a time, so
 * what follows the line stays in the file for the next command, as in sh.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "lang/expand.h"
#include "lang/lexer.h"
#include "lang/read.h"

#define READ_LINE_MAX 4096

/*
 * A line, without its newline: 0; 1 at the end of the file (a last line without a newline
 * still counts, as it does in sh); -errno. Without raw, backslash-newline joins lines.
 */
static int read_line(struct file *f, bool raw, struct strbuf *line)
{
	char c;
	ssize_t n;

	while ((n = file_read(f, &c, 1)) == 1) {
		if (c == '\n') {
			if (raw || !line->len || line->buf[line->len - 1] != '\\')
				return 0;
			sb_truncate(line, line->len - 1);
			continue;
		}
		if (line->len >= READ_LINE_MAX)
			return -E2BIG;
		sb_addc(line, c);
	}
	if (n < 0)
		return (int)n;
	return 1;
}

static int assign_fields(struct shell *sh, char **names, int n, const char *line, bool raw)
{
	const char *ifs = sh_var_get(&sh->vars, "IFS");
	struct strv vals = STRV_INIT;
	int err = sh_read_split(line, ifs ? ifs : SH_IFS_DEFAULT, raw, n, &vals);

	for (int i = 0; !err && i < n; i++)
		err = sh_var_set(&sh->vars, names[i], vals.v[i], 0);
	strv_free(&vals);
	return err;
}

static int cmd_read(int argc, char **argv)
{
	struct shell *sh = current_shell();
	struct strbuf line = STRBUF_INIT;
	bool raw = false;
	int i = 1, got, err;

	if (!sh)
		return 1;
	if (i < argc && !strcmp(argv[i], "-r")) {
		raw = true;
		i++;
	}
	if (i == argc)
		return sh_usage("read");
	for (int k = i; k < argc; k++)
		if (!sh_is_name(argv[k], strlen(argv[k])))
			return sh_error("read", "'%s': not a valid identifier", argv[k]);
	if (!current->files[0])
		return sh_error("read", "%s", errstr(-EBADF));
	got = read_line(current->files[0], raw, &line);
	err = got < 0 ? got : line.failed ? -ENOMEM : 0;
	if (!err)
		err = assign_fields(sh, argv + i, argc - i, sb_str(&line), raw);
	sb_release(&line);
	if (err)
		return sh_error("read", "%s", errstr(err));
	/* at the end of the input: the variables are set from what there was, status 1 */
	return got;
}
DEFINE_SHELL_CMD(read, "read", "read [-r] NAME...",
		 "read a line of stdin into variables, split on IFS", cmd_read, SHELL_CMD_SPECIAL);
