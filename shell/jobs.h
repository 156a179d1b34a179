/*
 * Jobs: the tasks of one pipeline (or one subshell), their exit statuses and CPU time.
 *
 * A job's tasks are detached: each reports its end through its sh_proc (status, CPU time)
 * and wakes whoever waits for that proc (its own queue), so a shell can wait for several
 * tasks at once, keep the status of a background job after its task is gone, and be woken
 * by Ctrl-C while waiting.
 * A proc is shared by its job and its running task, and freed by whichever lets go last.
 */
#ifndef CGWB_KERNEL_SHELL_JOBS_H
#define CGWB_KERNEL_SHELL_JOBS_H

#include <cgwb/wait.h>
#include <cgwb/list.h>
#include <cgwb/types.h>

struct shell;
struct task_struct;

struct sh_proc {
	struct list_head node;    /* in its job, pipeline order */
	struct task_struct *task; /* while it runs */
	int pid;
	int status;
	u64 cpu_ns;
	bool done;
	int refs;                 /* the job's, and the task's while it runs */
	wait_queue_head_t exited; /* its job's waiter: woken once, when done */
};

struct sh_job {
	struct list_head node; /* in shell->jobs, when in the background */
	struct list_head procs;
	int id;           /* %N of a background job */
	bool notified;    /* its end was reported */
	bool interrupted; /* Ctrl-C's SIGINT reached it (once: a program may handle it) */
	char *cmd;        /* source text, for `jobs` */
};

struct sh_job *job_alloc(const char *cmd, size_t len);
/* Drops the job's procs; running tasks keep theirs. */
void job_free(struct sh_job *job);
struct sh_proc *job_add_proc(struct sh_job *job);
/* A proc with no task, already finished (a command not found in a pipeline). */
void proc_finish_now(struct sh_proc *proc, int status);
/* The task of proc starts: proc takes a reference for it. Call before waking the task. */
void proc_attach(struct sh_proc *proc, struct task_struct *task);
/*
 * The task's exit_notify (set by sh_task_start): called in its do_exit() once its files
 * and directory are released; records the status and wakes the job's waiter.
 */
void proc_exit(void *proc, int status);

bool job_done(const struct sh_job *job);
/* The status of the pipeline: its last command's. */
int job_status(const struct sh_job *job);
u64 job_cpu_ns(const struct sh_job *job);
int job_last_pid(const struct sh_job *job);
void job_kill(struct sh_job *job);
/* Signal sig to each of the job's tasks still running (job_kill: SIGINT, as Ctrl-C). */
void job_signal(struct sh_job *job, int sig);

/* Wait in the foreground: Ctrl-C or a kill of the shell kills the job. Its status. */
int job_wait_fg(struct shell *sh, struct sh_job *job);
/* Wait for a background job (`wait`): its status, or -EINTR on Ctrl-C or a kill. */
int job_wait_bg(struct shell *sh, struct sh_job *job);

/* Background jobs of a shell. */
void job_to_background(struct shell *sh, struct sh_job *job);
struct sh_job *job_find(struct shell *sh, const char *spec); /* "PID" or "%N" */
void job_forget(struct sh_job *job);
/* Report (interactive) background jobs that ended since the last prompt. */
void jobs_notify(struct shell *sh);
void jobs_free(struct shell *sh);
const char *job_state(const struct sh_job *job, char *buf, size_t size);

/* The console shell: Ctrl-C goes to its foreground job. */
void jobs_set_console_shell(struct shell *sh);
/* Drop a kill aimed at the console shell itself (it ignores them, like init). */
void shell_flush_kill(void);

#endif
