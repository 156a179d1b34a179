/*
 * Simple commands, pipelines and background jobs. A command runs as its own task; a
 * special command runs in the shell's task when alone in the foreground, and in a subshell
 * task otherwise (inside a pipeline or with &), as do compound commands in those places.
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "exec.h"
#include "internal.h"
#include "jobs.h"
#include <cgwb/pipe.h>

int sh_run_builtin(const struct shell_cmd *cmd, int argc, char **argv, struct sh_files *fs)
{
	struct sh_files saved;
	int status;

	files_install(fs, &saved);
	status = cmd->fn(argc, argv);
	files_restore(&saved);
	return status < 0 ? 1 : status & 0xff;
}

/* Expand the words into argv and apply the redirections on top of fs: 0 or a status. */
static int prepare_simple(struct shell *sh, struct sh_node *n, struct strv *argv, struct sh_files *fs)
{
	int status = sh_expand_words(sh, n->cmd.words, argv);

	return status ? status : sh_redirect(sh, n->redirs, fs);
}

static const struct shell_cmd *find_cmd(const char *name, struct sh_files *fs)
{
	const struct shell_cmd *cmd = shell_find_cmd(name);

	if (!cmd)
		shell_msg(fs->f[2], "%s: command not found", name);
	return cmd;
}

/* A regular command as a one-task job in the foreground. */
static int run_task(struct shell *sh, const struct shell_cmd *cmd, char **argv, struct cgroup *cg,
		    struct sh_files *fs, u64 *cpu_ns)
{
	struct sh_job *job = job_alloc(argv[0], strlen(argv[0]));
	struct sh_proc *proc = job ? job_add_proc(job) : NULL;
	int err = proc ? sh_spawn_proc(cmd, argv, cg, fs, proc) : -ENOMEM;
	int status;

	if (err) {
		shell_msg(fs->f[2], "%s: %s", argv[0], errstr(err));
		job_free(job);
		return 126;
	}
	status = job_wait_fg(sh, job);
	if (cpu_ns)
		*cpu_ns = job_cpu_ns(job);
	job_free(job);
	return status;
}

int sh_exec_simple(struct shell *sh, struct sh_node *n)
{
	struct strv argv = STRV_INIT;
	const struct shell_cmd *cmd;
	const struct sh_func *func;
	struct sh_local *saved = NULL;
	struct sh_files fs;
	int status;

	sh->env.subst_status = -1;
	files_from_current(&fs);
	status = prepare_simple(sh, n, &argv, &fs);
	if (!status && sh_unwinding(sh)) {
		status = SH_STATUS_KILLED; /* Ctrl-C during a $(...) */
	} else if (!status && !argv.n) {
		/* assignments only: $? is that of the last command substitution, if any */
		status = sh_assign(sh, n->cmd.assigns);
		if (!status && sh->env.subst_status >= 0)
			status = sh->env.subst_status;
	} else if (!status && (func = sh_func_find(sh, argv.v[0]))) {
		status = sh_assign_push(sh, n->cmd.assigns, &saved);
		if (!status)
			status = sh_func_call(sh, func, argv.n, argv.v, &fs);
		sh_assign_pop(sh, &saved);
	} else if (!status) {
		/* VAR=value before a command task is accepted but has no effect: no environments */
		cmd = find_cmd(argv.v[0], &fs);
		if (!cmd) {
			status = 127;
		} else if (cmd->flags & SHELL_CMD_SPECIAL) {
			status = sh_assign_push(sh, n->cmd.assigns, &saved);
			if (!status)
				status = sh_run_builtin(cmd, argv.n, argv.v, &fs);
			sh_assign_pop(sh, &saved);
		} else {
			status = run_task(sh, cmd, argv.v, NULL, &fs, NULL);
		}
	}
	files_put(&fs);
	strv_free(&argv);
	return status;
}

int shell_run_command(int argc, char **argv, struct cgroup *cg, u64 *cpu_ns)
{
	struct shell *sh = current_shell();
	const struct shell_cmd *cmd;
	struct sh_files fs;
	int status;

	if (cpu_ns)
		*cpu_ns = 0;
	if (!sh || argc < 1) {
		shell_msg(NULL, "shell_run_command: not called from a shell's task");
		return 2;
	}
	files_from_current(&fs);
	cmd = find_cmd(argv[0], &fs);
	if (!cmd) {
		status = 127;
	} else if (!(cmd->flags & SHELL_CMD_SPECIAL)) {
		status = run_task(sh, cmd, argv, cg, &fs, cpu_ns);
	} else if (cg && cg != current->cgroup) {
		shell_msg(fs.f[2], "%s: a shell builtin cannot run in another cgroup", argv[0]);
		status = 1;
	} else {
		status = sh_run_builtin(cmd, argc, argv, &fs);
	}
	files_put(&fs);
	return status;
}

struct subshell_text {
	struct strbuf sb;
	const char *span_end; /* the end of the node's own text */
	bool bodies;          /* a here-document's body was added */
};

/*
 * A here-document whose body lies after the node's text goes after it. Such bodies all
 * follow the node's last line, one after the other: one newline ends that line first.
 */
static void add_heredoc_body(const struct sh_redir *r, void *arg)
{
	struct subshell_text *t = arg;

	if (!r->body_src || r->body_src < t->span_end)
		return; /* not a << , or its body is inside the text already */
	if (!t->bodies)
		sb_addc(&t->sb, '\n');
	t->bodies = true;
	sb_addn(&t->sb, r->body_src, r->body_src_len);
}

/* Run a node's text in a subshell task ("( list )" runs its list). */
static void start_subshell(struct shell *sh, struct sh_node *n, struct sh_files *fs,
			   struct sh_proc *proc)
{
	struct subshell_text t = { STRBUF_INIT, NULL, false };
	int err;

	if (n->type == SH_SUBSHELL) {
		if (sh_redirect(sh, n->redirs, fs)) {
			proc_finish_now(proc, 1);
			return;
		}
		n = n->body;
	}
	t.span_end = n->src + n->src_len;
	sb_addn(&t.sb, n->src, n->src_len);
	sh_node_for_each_redir(n, add_heredoc_body, &t);
	err = t.sb.failed ? -ENOMEM : sh_start_subshell(sh, sb_str(&t.sb), t.sb.len, fs, proc);
	sb_release(&t.sb);
	if (err) {
		shell_msg(fs->f[2], "cannot start a subshell: %s", errstr(err));
		proc_finish_now(proc, 126);
	}
}

static bool has_substitution(const char *word)
{
	return strstr(word, "$(") || strchr(word, '`');
}

/*
 * Whether a simple command must run in a subshell task rather than be expanded here and
 * started as a task: a special command or a function (its name written plainly; expanded,
 * it is found later), assignments alone (they must not touch this shell), or, in the background, a
 * command substitution (the shell must not wait for it).
 */
static bool needs_subshell(const struct shell *sh, const struct sh_node *n, bool background)
{
	const struct sh_word *w = n->cmd.words;
	const struct shell_cmd *cmd;

	if (!w)
		return true;
	if (background) {
		for (const struct sh_word *a = w; a; a = a->next)
			if (has_substitution(a->text))
				return true;
		for (const struct sh_redir *r = n->redirs; r; r = r->next)
			if (has_substitution(r->target->text))
				return true;
	}
	if (w->text[strcspn(w->text, "'\"\\$`")])
		return false;
	if (sh_func_find(sh, w->text))
		return true;
	cmd = shell_find_cmd(w->text);
	return cmd && (cmd->flags & SHELL_CMD_SPECIAL);
}

static void start_simple(struct shell *sh, struct sh_node *n, struct sh_files *fs,
			 struct sh_proc *proc)
{
	struct strv argv = STRV_INIT;
	const struct shell_cmd *cmd;
	int status = prepare_simple(sh, n, &argv, fs);

	if (status || !argv.n) {
		proc_finish_now(proc, status);
	} else if (sh_func_find(sh, argv.v[0])) {
		start_subshell(sh, n, fs, proc);
	} else if (!(cmd = find_cmd(argv.v[0], fs))) {
		proc_finish_now(proc, 127);
	} else if (cmd->flags & SHELL_CMD_SPECIAL) {
		start_subshell(sh, n, fs, proc);
	} else {
		int err = sh_spawn_proc(cmd, argv.v, NULL, fs, proc);

		if (err) {
			shell_msg(fs->f[2], "%s: %s", argv.v[0], errstr(err));
			proc_finish_now(proc, 126);
		}
	}
	strv_free(&argv);
}

/* One command of a job, with its files: a task, or a subshell task. */
static int start_one(struct shell *sh, struct sh_node *n, struct sh_files *fs, struct sh_job *job,
		     bool background)
{
	struct sh_proc *proc = job_add_proc(job);

	if (!proc)
		return -ENOMEM;
	if (n->type == SH_CMD && !needs_subshell(sh, n, background))
		start_simple(sh, n, fs, proc);
	else
		start_subshell(sh, n, fs, proc);
	return 0;
}

/* Start every command of a pipeline (or the one command n) as tasks of job. */
static int start_job(struct shell *sh, struct sh_node *n, struct sh_job *job,
		     const struct sh_files *base, bool background)
{
	bool piped = n->type == SH_PIPE;
	struct file *in = NULL;
	int err = 0;

	for (struct sh_node *k = piped ? n->kids : n; k && !err; k = piped ? k->next : NULL) {
		struct file *rd = NULL, *wr = NULL;
		struct sh_files fs;

		files_copy(&fs, base);
		if (in)
			files_replace(&fs, 0, in);
		if (piped && k->next) {
			err = create_pipe_files(&rd, &wr);
			if (!err)
				files_replace(&fs, 1, wr);
		}
		if (!err)
			err = start_one(sh, k, &fs, job, background);
		files_put(&fs);
		in = rd;
	}
	fput(in);
	if (err)
		shell_msg(NULL, "cannot start '%.*s': %s", (int)min_t(size_t, n->src_len, 40),
			  n->src, errstr(err));
	return err;
}

int sh_exec_job(struct shell *sh, struct sh_node *n)
{
	struct sh_job *job = job_alloc(n->src, n->src_len);
	struct sh_files base;
	int status;

	if (!job) {
		shell_msg(NULL, "out of memory");
		return 1;
	}
	files_from_current(&base);
	start_job(sh, n, job, &base, false);
	files_put(&base);
	status = job_wait_fg(sh, job);
	job_free(job);
	return status;
}

void sh_exec_background(struct shell *sh, struct sh_node *n)
{
	struct sh_job *job = job_alloc(n->src, n->src_len);
	struct sh_files base;
	struct file *null;

	if (!job) {
		shell_msg(NULL, "out of memory");
		return;
	}
	files_from_current(&base);
	/* no job control: a background job must not compete for the console's input */
	null = filp_open("/dev/null", O_RDONLY, 0);
	if (!IS_ERR(null))
		files_replace(&base, 0, null);
	if (n->type == SH_PIPE)
		start_job(sh, n, job, &base, true);
	else if (start_one(sh, n, &base, job, true))
		shell_msg(NULL, "out of memory");
	files_put(&base);
	job_to_background(sh, job);
	if (sh->interactive)
		sh_out("[%d] %d\n", job->id, job_last_pid(job));
}
