/* Jobs, their tasks' exit statuses, waiting for them, and Ctrl-C. */
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/shell.h>
#include <cgwb/console.h>
#include "internal.h"
#include "jobs.h"

/* Finished background jobs remembered for `wait PID` (a loop of `cmd &` has no bound). */
#define MAX_DONE_JOBS 64

/* Guards procs' state and task pointers, job proc lists and shell->fg: Ctrl-C reads them. */
static DEFINE_SPINLOCK(proc_lock);
static struct shell *console_shell;

struct sh_job *job_alloc(const char *cmd, size_t len)
{
	struct sh_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

	if (!job)
		return NULL;
	INIT_LIST_HEAD(&job->node);
	INIT_LIST_HEAD(&job->procs);
	while (len && (cmd[len - 1] == ' ' || cmd[len - 1] == '\n'))
		len--;
	job->cmd = kstrndup(cmd, len, GFP_KERNEL);
	if (!job->cmd) {
		kfree(job);
		return NULL;
	}
	return job;
}

static void proc_put(struct sh_proc *p)
{
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&proc_lock, flags);
	last = --p->refs == 0;
	spin_unlock_irqrestore(&proc_lock, flags);
	if (last)
		kfree(p);
}

void job_free(struct sh_job *job)
{
	struct sh_proc *p, *tmp;
	unsigned long flags;

	if (!job)
		return;
	list_for_each_entry_safe(p, tmp, &job->procs, node) {
		spin_lock_irqsave(&proc_lock, flags);
		list_del(&p->node);
		spin_unlock_irqrestore(&proc_lock, flags);
		proc_put(p);
	}
	kfree(job->cmd);
	kfree(job);
}

struct sh_proc *job_add_proc(struct sh_job *job)
{
	struct sh_proc *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned long flags;

	if (!p)
		return NULL;
	p->refs = 1;
	init_waitqueue_head(&p->exited);
	spin_lock_irqsave(&proc_lock, flags);
	list_add_tail(&p->node, &job->procs);
	spin_unlock_irqrestore(&proc_lock, flags);
	return p;
}

void proc_finish_now(struct sh_proc *p, int status)
{
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	p->status = status;
	p->done = true;
	spin_unlock_irqrestore(&proc_lock, flags);
}

void proc_attach(struct sh_proc *p, struct task_struct *task)
{
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	p->task = task;
	p->pid = task->pid;
	p->refs++;
	spin_unlock_irqrestore(&proc_lock, flags);
}

void proc_exit(void *proc, int status)
{
	struct sh_proc *p = proc;
	struct task_struct *t = current;
	u64 cpu = t->sum_exec_ns + (ktime_get_ns() - t->last_ran_ns);
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	p->status = status;
	p->cpu_ns = cpu;
	p->task = NULL; /* from here on the task may be gone: Ctrl-C must not touch it */
	WRITE_ONCE(p->done, true);
	spin_unlock_irqrestore(&proc_lock, flags);
	/* only this job's waiter: with 256 shells each waiting for its own dd, not all of them */
	wake_up_all(&p->exited);
	proc_put(p);
}

/*
 * Until every proc of the job is done (each one's own queue, in turn); -EINTR if a kill
 * came first (interruptible).
 */
static int job_wait_procs(struct sh_job *job, bool interruptible)
{
	struct sh_proc *p;

	list_for_each_entry(p, &job->procs, node) {
		if (!interruptible)
			wait_event(p->exited, READ_ONCE(p->done));
		else if (wait_event_interruptible(p->exited, READ_ONCE(p->done)))
			return -EINTR;
	}
	return 0;
}

bool job_done(const struct sh_job *job)
{
	const struct sh_proc *p;

	list_for_each_entry(p, &job->procs, node)
		if (!READ_ONCE(p->done))
			return false;
	return true;
}

int job_status(const struct sh_job *job)
{
	if (list_empty(&job->procs))
		return 0;
	return list_last_entry(&job->procs, struct sh_proc, node)->status;
}

u64 job_cpu_ns(const struct sh_job *job)
{
	const struct sh_proc *p;
	u64 sum = 0;

	list_for_each_entry(p, &job->procs, node)
		sum += p->cpu_ns;
	return sum;
}

int job_last_pid(const struct sh_job *job)
{
	if (list_empty(&job->procs))
		return 0;
	return list_last_entry(&job->procs, struct sh_proc, node)->pid;
}

/* Called with proc_lock held. */
static void __job_signal(struct sh_job *job, int sig)
{
	struct sh_proc *p;

	list_for_each_entry(p, &job->procs, node)
		if (!p->done && p->task)
			send_sig(sig, p->task);
}

static void __job_kill(struct sh_job *job)
{
	WRITE_ONCE(job->interrupted, true);
	__job_signal(job, SIGINT);
}

void job_signal(struct sh_job *job, int sig)
{
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	__job_signal(job, sig);
	spin_unlock_irqrestore(&proc_lock, flags);
}

void job_kill(struct sh_job *job)
{
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	__job_kill(job);
	spin_unlock_irqrestore(&proc_lock, flags);
}

static void set_fg(struct shell *sh, struct sh_job *job)
{
	unsigned long flags;

	spin_lock_irqsave(&proc_lock, flags);
	sh->fg = job;
	spin_unlock_irqrestore(&proc_lock, flags);
}

void shell_flush_kill(void)
{
	/*
	 * The console shell is the machine's init: like Linux's init it is not killed by
	 * signals it has no use for. Ctrl-C sends it a kill only to wake it from a wait.
	 */
	WRITE_ONCE(current->sigkill, false);
	WRITE_ONCE(current->kill_signal, 0);
}

int job_wait_fg(struct shell *sh, struct sh_job *job)
{
	set_fg(sh, job);
	if (READ_ONCE(sh->interrupted))
		job_kill(job); /* Ctrl-C came while the job was being started */
	while (job_wait_procs(job, true)) {
		if (!sh->console) {
			/* a subshell being killed takes its foreground job with it */
			job_kill(job);
			job_wait_procs(job, false);
			break;
		}
		shell_flush_kill();
		if (READ_ONCE(sh->interrupted) && !READ_ONCE(job->interrupted))
			job_kill(job);
	}
	set_fg(sh, NULL);
	/*
	 * As bash's: a program that took Ctrl-C's SIGINT with a handler and then ended by
	 * itself was not interrupted, so neither is the shell: its status stands and the
	 * command list goes on.
	 */
	if (sh->console && READ_ONCE(job->interrupted) && job_status(job) != 128 + SIGINT)
		WRITE_ONCE(sh->interrupted, false);
	/* as ash at a terminal: a foreground job that got SIGKILL (the OOM killer) says so */
	if (sh->interactive && job_status(job) == 128 + SIGKILL)
		sh_err("Killed\n");
	return job_status(job);
}

int job_wait_bg(struct shell *sh, struct sh_job *job)
{
	while (job_wait_procs(job, true)) {
		if (!sh->console)
			return -EINTR;
		shell_flush_kill();
		if (READ_ONCE(sh->interrupted))
			return -EINTR;
	}
	return job_status(job);
}

static void trim_done_jobs(struct shell *sh)
{
	struct sh_job *job, *tmp;
	int done = 0;

	list_for_each_entry(job, &sh->jobs, node)
		done += job_done(job);
	list_for_each_entry_safe(job, tmp, &sh->jobs, node) {
		if (done <= MAX_DONE_JOBS)
			break;
		if (job_done(job)) {
			job_forget(job);
			done--;
		}
	}
}

void job_to_background(struct shell *sh, struct sh_job *job)
{
	struct sh_job *j;
	int id = 0;

	list_for_each_entry(j, &sh->jobs, node)
		if (!j->notified && j->id > id)
			id = j->id;
	job->id = id + 1;
	list_add_tail(&job->node, &sh->jobs);
	sh->last_bg_pid = job_last_pid(job);
	trim_done_jobs(sh);
}

struct sh_job *job_find(struct shell *sh, const char *spec)
{
	struct sh_job *job;
	struct sh_proc *p;
	int n;

	if (spec[0] == '%') {
		if ((!strcmp(spec, "%%") || !strcmp(spec, "%+")) && !list_empty(&sh->jobs))
			return list_last_entry(&sh->jobs, struct sh_job, node);
		if (kstrtoint(spec + 1, 10, &n))
			return NULL;
		list_for_each_entry_reverse(job, &sh->jobs, node)
			if (job->id == n && !job->notified)
				return job;
		return NULL;
	}
	if (kstrtoint(spec, 10, &n))
		return NULL;
	list_for_each_entry_reverse(job, &sh->jobs, node)
		list_for_each_entry(p, &job->procs, node)
			if (p->pid == n)
				return job;
	return NULL;
}

void job_forget(struct sh_job *job)
{
	list_del(&job->node);
	job_free(job);
}

const char *job_state(const struct sh_job *job, char *buf, size_t size)
{
	int status;

	if (!job_done(job))
		return "Running";
	status = job_status(job);
	if (!status)
		return "Done";
	if (status == SH_STATUS_KILLED || status == 128 + SIGKILL)
		return "Killed";
	snprintf(buf, size, "Exit %d", status);
	return buf;
}

void jobs_notify(struct shell *sh)
{
	struct sh_job *job;
	char buf[16];

	list_for_each_entry(job, &sh->jobs, node) {
		if (job->notified || !job_done(job))
			continue;
		job->notified = true;
		if (sh->interactive)
			sh_out("[%d]%c  %-24s%s\n", job->id,
			       list_is_last(&job->node, &sh->jobs) ? '+' : ' ',
			       job_state(job, buf, sizeof(buf)), job->cmd);
	}
}

void jobs_free(struct shell *sh)
{
	while (!list_empty(&sh->jobs))
		job_forget(list_first_entry(&sh->jobs, struct sh_job, node));
}

/* Ctrl-C on the console (interrupt context): stop the foreground job and wake the shell. */
static bool console_intr(void)
{
	struct shell *sh = READ_ONCE(console_shell);
	unsigned long flags;

	if (!sh || !READ_ONCE(sh->busy))
		return false; /* at the prompt: the line editor gets the ^C */
	WRITE_ONCE(sh->interrupted, true);
	spin_lock_irqsave(&proc_lock, flags);
	if (sh->fg)
		__job_kill(sh->fg);
	spin_unlock_irqrestore(&proc_lock, flags);
	send_sig_kill(sh->task);
	return true;
}

void jobs_set_console_shell(struct shell *sh)
{
	WRITE_ONCE(console_shell, sh);
	console_set_intr_handler(console_intr);
}
