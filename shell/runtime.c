/* What commands use to find each other and to write their output (include/cgwb/shell.h). */
#include <cgwb/exec.h>
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

extern const struct shell_cmd __shell_cmds_start[], __shell_cmds_end[];

/* A name with a '/' is a program's path: the command runs it (include/cgwb/exec.h). */
static const struct shell_cmd program_cmd = {
	.name = "program",
	.usage = "PATH [ARG]...",
	.summary = "run a static x86-64 Linux executable",
	.fn = run_program,
};

const struct shell_cmd *shell_find_cmd(const char *name)
{
	if (strchr(name, '/'))
		return &program_cmd;
	for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void shell_for_each_cmd(void (*fn)(const struct shell_cmd *cmd, void *arg), void *arg)
{
	for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
		fn(c, arg);
}

static int out_vprintf(int fd, const char *fmt, va_list ap)
{
	struct file *f = current->files[fd];

	return f ? file_vprintf(f, fmt, ap) : -EBADF;
}

int sh_out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = out_vprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int sh_err(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = out_vprintf(2, fmt, ap);
	va_end(ap);
	return n;
}

int sh_write(const void *buf, size_t len)
{
	struct file *f = current->files[1];

	return f ? (int)file_write_all(f, buf, len) : -EBADF;
}

int sh_usage(const char *name)
{
	const struct shell_cmd *cmd = shell_find_cmd(name);

	sh_err("usage: %s\n", cmd ? cmd->usage : name);
	return 2;
}

/* One write, so concurrent commands' messages do not interleave mid-line. */
int sh_error(const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n = scnprintf(buf, sizeof(buf) - 1, "%s: ", name);

	va_start(ap, fmt);
	n += vscnprintf(buf + n, sizeof(buf) - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	if (buf[n - 1] != '\n')
		buf[n++] = '\n';
	if (current->files[2])
		file_write_all(current->files[2], buf, (size_t)n);
	return 1;
}
