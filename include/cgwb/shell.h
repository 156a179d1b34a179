/*
 * Shell commands. Any subsystem adds a command with DEFINE_SHELL_CMD in its own file; the
 * shell finds them through the .shell_cmds linker section. A command runs as its own task
 * (so it can be backgrounded, killed with Ctrl-C and placed in a cgroup) with argv, and
 * reads/writes through the task's files: 0 stdin, 1 stdout, 2 stderr.
 *
 * Conventions (coreutils-like): status 0 on success, 1 on failure with a message
 * "NAME: what went wrong" on stderr, 2 with a "usage: ..." line for bad arguments. Long
 * loops check signal_pending(current) and stop with status 130 when killed.
 */
#ifndef CGWB_SHELL_CMD_H
#define CGWB_SHELL_CMD_H

#include <cgwb/compiler.h>
#include <cgwb/types.h>

/* Runs inside the shell's own task (it changes shell state: wait, exit, cd, export...). */
#define SHELL_CMD_SPECIAL 0x1

struct shell_cmd {
	const char *name;
	const char *usage;   /* arguments synopsis: "sleep SECONDS" */
	const char *summary; /* one line for help */
	int (*fn)(int argc, char **argv);
	unsigned int flags;
};

#define DEFINE_SHELL_CMD(id, name_, usage_, summary_, fn_, flags_)                                \
	static const struct shell_cmd __shell_cmd_##id __used __section(".shell_cmds") __aligned( \
		8) = { .name = name_, .usage = usage_, .summary = summary_, .fn = fn_, .flags = flags_ }

const struct shell_cmd *shell_find_cmd(const char *name);

/* Output of the current task: stdout / stderr. Return bytes written or a negative error. */
int sh_out(const char *fmt, ...) __printf(1, 2);
int sh_err(const char *fmt, ...) __printf(1, 2);
int sh_write(const void *buf, size_t len);
/* "usage: <usage>" on stderr; returns 2. */
int sh_usage(const char *name);
/* "NAME: message" on stderr (a newline is added unless fmt ends with one); returns 1. */
int sh_error(const char *name, const char *fmt, ...) __printf(2, 3);

#define SH_STATUS_KILLED 130
/* A killed task's status: 128 + its signal (130 after Ctrl-C or kill, 137 after SIGKILL). */
int sh_killed_status(void);

/* "1", "0.25", "1.5s", "2m", "1h", "1d" in milliseconds; false if it is not a duration
 * (sleep's arguments, wbtop -d). */
bool sh_parse_duration(const char *s, u64 *ms);

/**
 * shell_run_console() - the console's shell: the machine's init
 * @script: the boot script's text, run first, or NULL
 *
 * Then the interactive shell on the console (shell/shell.c), for good. The OOM killer
 * passes its task by, as Linux's passes init by.
 *
 * Context: the init task, once; sleeps.
 * Return: never returns (a shell out of memory panics).
 */
int shell_run_console(const char *script);

#endif
