/*
 * The workload shell's private interfaces. One struct shell per running shell: the
 * console's, and each subshell task's (a background loop, a compound command in a
 * pipeline, a command substitution), which starts as a copy of its parent.
 */
#ifndef CGWB_KERNEL_SHELL_INTERNAL_H
#define CGWB_KERNEL_SHELL_INTERNAL_H

#include <cgwb/list.h>
#include <cgwb/compiler.h>
#include "lang/ast.h"
#include "lang/env.h"
#include "lang/vars.h"
#include "lang/strbuf.h"

struct file;
struct sh_job;
struct task_struct;
struct shell_cmd;
struct sh_func;
struct sh_local;

#define SH_NAME "cgwb" /* prefix of the shell's own messages, and $0 */
#define SH_NFILES 3    /* stdin, stdout, stderr: what redirections can change */

struct shell {
	struct sh_env env; /* variables and substitution, for the language core */
	struct sh_vars vars;
	struct task_struct *task;
	int status;       /* $? */
	int pid;          /* $$: the console shell's pid, in subshells too */
	int last_bg_pid;  /* $!, 0 before any background job */
	bool interactive; /* prompts and job notices */
	bool console;     /* the console's own shell: kills aimed at it are dropped */

	/* unwinding: a command asked to leave loops or the shell */
	int breaks, continues;
	int loop_depth;
	bool returning; /* `return` in a function: leave its body */
	bool exiting;
	int exit_status;

	/* Ctrl-C, from interrupt context */
	bool busy; /* running a command, so Ctrl-C is for it */
	bool interrupted;
	struct sh_job *fg; /* the foreground job, which Ctrl-C kills */

	struct sh_func *funcs;   /* defined functions (functions.c) */
	struct sh_local *locals; /* values saved by `local`, innermost call first */
	int func_depth;          /* function calls running */

	struct list_head jobs; /* background jobs, oldest first */
	int next_job_id;
	char param[24]; /* $? $$ $! formatted for the language core */
};

/* env.c: shell state */
struct shell *shell_alloc(void);
struct shell *shell_clone(const struct shell *parent);
void shell_free(struct shell *sh);
/* The shell running in the current task (SPECIAL commands use it); NULL if none. */
struct shell *current_shell(void);
/* "cgwb: message\n" on f (the current stderr if f is NULL). */
void shell_msg(struct file *f, const char *fmt, ...) __printf(2, 3);
/* Report a failed expansion (env.err) on err (NULL: stderr); a script ends. Returns 2. */
int sh_expansion_failed(struct shell *sh, struct file *err);
/* Expand words into argv fields: 0, or 2 after reporting why not. */
int sh_expand_words(struct shell *sh, const struct sh_word *w, struct strv *argv);
/* NAME=value words: 0, or a status after reporting why not. */
int sh_assign(struct shell *sh, const struct sh_word *w);

/* Leaving the current command list: break, continue, exit, Ctrl-C or a kill. */
bool sh_unwinding(const struct shell *sh);

/* files.c: the three standard files a command gets */
struct sh_files {
	struct file *f[SH_NFILES];
};
void files_from_current(struct sh_files *fs);
void files_copy(struct sh_files *dst, const struct sh_files *src);
void files_put(struct sh_files *fs);
/* Put file (whose reference fs takes) at fd, dropping what was there. */
void files_replace(struct sh_files *fs, int fd, struct file *file);
/* Make fs the current task's files (fs's references move), saving the old ones. */
void files_install(struct sh_files *fs, struct sh_files *saved);
void files_restore(struct sh_files *saved);
/* Apply redirections to fs: 0, or a status (1: cannot open) after reporting why not. */
int sh_redirect(struct shell *sh, const struct sh_redir *r, struct sh_files *fs);

/* exec.c, pipeline.c: running parsed commands; each returns the exit status */
int sh_exec(struct shell *sh, struct sh_node *n);
/* A simple command alone in the foreground (special commands run in the shell's task). */
int sh_exec_simple(struct shell *sh, struct sh_node *n);
/* A pipeline or ( subshell ) in the foreground: its tasks, waited for. */
int sh_exec_job(struct shell *sh, struct sh_node *n);
/* Anything with &: started, remembered in the job table, not waited for. */
void sh_exec_background(struct shell *sh, struct sh_node *n);
/* A special command run in the shell's task with fs installed (fs's references are used up). */
int sh_run_builtin(const struct shell_cmd *cmd, int argc, char **argv, struct sh_files *fs);

/* functions.c: functions and positional parameters */
struct sh_func *sh_func_find(const struct shell *sh, const char *name);
/* Define (or redefine) name with the body src: 0, or 1 after a message. */
int sh_func_define(struct shell *sh, const char *name, const char *src, size_t len);
void sh_funcs_free(struct shell *sh);
int sh_funcs_copy(struct shell *dst, const struct shell *src);
/* Replace the positional parameters with copies of argv[0..argc): 0 or -ENOMEM. */
int sh_args_set(struct sh_env *env, int argc, char *const *argv);
void sh_args_free(struct sh_env *env);
/* `local name`: its value is given back when the running function returns. */
int sh_local(struct shell *sh, const char *name);
/* NAME=value words for one builtin or function call; *saved gives the old values back. */
int sh_assign_push(struct shell *sh, const struct sh_word *w, struct sh_local **saved);
void sh_assign_pop(struct shell *sh, struct sh_local **saved);
/* Call f with argv (argv[0] its name) and fs installed (fs's references stay the caller's). */
int sh_func_call(struct shell *sh, const struct sh_func *f, int argc, char **argv,
		 struct sh_files *fs);

/* glob.c: pathname expansion (sh_env's glob op) */
int sh_glob(struct sh_env *env, const char *pattern, struct strv *out);

/* script.c: run shell text (the boot script, a subshell's): the last status */
int shell_run_script(struct shell *sh, const char *src, size_t len);

/* spawn.c: tasks for commands and subshells */
struct sh_proc;
struct cgroup;
/* A task not yet running, with files and cgroup (NULL: the caller's) set: start it next. */
struct task_struct *sh_task_create(int (*fn)(void *), void *data, const char *name,
				   struct cgroup *cg, struct file *const *files);
/* Start a task as proc of a shell job: detached, it reports its end through proc. */
void sh_task_start(struct task_struct *t, struct sh_proc *proc);
int sh_spawn_proc(const struct shell_cmd *cmd, char **argv, struct cgroup *cg, struct sh_files *fs,
		  struct sh_proc *proc);

/* subshell.c */
/* Run src in a new subshell task (a copy of sh) with files fs, as proc. */
int sh_start_subshell(struct shell *sh, const char *src, size_t len, struct sh_files *fs,
		      struct sh_proc *proc);
int sh_command_subst(struct shell *sh, const char *src, size_t len, struct strbuf *out);

/* capture.c: a file that collects what is written to it (command substitution) */
struct file *capture_open(void);
/* A file that reads back text (a here-document); NULL if out of memory. */
struct file *memfile_open(const char *text, size_t len);
/* The captured output; -EFBIG if some of it was refused (over the bound). */
int capture_take(struct file *file, struct strbuf *out);

/* cmd_args.c: the skeleton of the commands: options, operands and their messages */
/* The bit of an option letter (a-z, A-Z or 0-9) in the mask sh_flags() fills. */
#define SH_OPT(c) (1ULL << ((c) >= 'a' ? (c) - 'a' : (c) >= 'A' ? (c) - 'A' + 26 : (c) - '0' + 52))

/* getopt's state over one argv; zeroed ({ 0 }) it starts at argv[1]. */
struct sh_getopt {
	int ind;          /* the next word; once done, the first operand */
	const char *arg;  /* the value of the option just returned, if it takes one */
	const char *next; /* what is left of a word of letters ("-la": "a") */
};
/*
 * The next option of argv as POSIX getopt: letters combine ("-la"); a letter followed by
 * ':' in optstring takes a value ("-t," or "-t ,"). 0 at the first operand (g->ind), after
 * "--", or at "-" (standard input); '?' after coreutils' message ("invalid option -- 'x'",
 * "option requires an argument -- 'x'") and the usage line: the command returns 2.
 */
int sh_getopt(struct sh_getopt *g, int argc, char **argv, const char *optstring);
/*
 * Options without values, as SH_OPT bits in *flags: the first operand's index, or -1 after
 * sh_getopt's message (the command returns 2).
 */
int sh_flags(int argc, char **argv, const char *allowed, u64 *flags);
/* "cmd: missing operand" (what: "operand", "file operand"...) and the usage line: 2. */
int sh_missing_operand(const char *cmd, const char *what);
/* "cmd: doing 'operand': error" (doing NULL: "cmd: operand: error"), as coreutils: 1. */
int sh_operand_error(const char *cmd, const char *doing, const char *operand, int err);
/* What a command does with one operand: its status, after its own message if it failed. */
typedef int sh_operand_fn(const char *operand, void *ctx);
/*
 * one(argv[i], ctx) for each operand from first on, a failed one reported by one and the
 * loop going on: the worst (highest) status, or SH_STATUS_KILLED once a kill stops it.
 */
int sh_for_each_operand(int argc, char **argv, int first, sh_operand_fn *one, void *ctx);
/* The same for FILE... operands that default to standard input: "-" when there are none. */
int sh_for_each_input(int argc, char **argv, int first, sh_operand_fn *one, void *ctx);
/*
 * The whole of a command of letter options and one or more operands (mkdir, rmdir...): the
 * options as sh_flags, "missing <missing>" without an operand, else one(operand, &flags)
 * for each as sh_for_each_operand. Its status.
 */
int sh_operands_main(int argc, char **argv, const char *allowed, const char *missing,
		     sh_operand_fn *one);

/* runtime.c: the command table */
void shell_for_each_cmd(void (*fn)(const struct shell_cmd *cmd, void *arg), void *arg);

#endif
