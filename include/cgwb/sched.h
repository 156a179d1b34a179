/*
 * Tasks: preemptive kernel threads in the kernel, cooperative deterministic threads on the host.
 * Shell commands and cgroup workloads run as tasks; each records its cgroup and carries the
 * per-task dirty-throttling state of balance_dirty_pages().
 */
#ifndef CGWB_SCHED_H
#define CGWB_SCHED_H

#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/jiffies.h>
#include <cgwb/percpu.h>

struct cgroup;
struct file;
struct fs_struct;
struct files_struct;
struct borrowed_file;
struct mm_struct;
struct user_thread;
struct program;

#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#define TASK_DEAD 64
#define TASK_NOLOAD 1024
/* Asleep uninterruptibly with nothing pending (an idle worker): not hung, shown as "I" */
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_KILLABLE TASK_INTERRUPTIBLE /* the only signal is a kill */

#define TASK_COMM_LEN 16
#define TASK_NR_FILES 256 /* RLIMIT_NOFILE: Linux's default soft limit is 1024 */
#define TASK_FILES_HELD 4 /* files a system call holds from a shared table without a list */

/* flags */
#define PF_KTHREAD 0x1  /* a kernel service thread (not a user command) */
#define PF_DETACHED 0x2 /* reaped on exit, nobody joins it */
#define PF_EXITING 0x4
#define PF_IDLE 0x8
#define PF_WQ_WORKER 0x10 /* a workqueue worker */

/* The signals a kill carries: they decide a killed command's status, 128 + the signal. */
#ifndef SIGINT
#define SIGINT 2 /* Ctrl-C and the shell's kill: status 130 */
#endif
#ifndef SIGKILL
#define SIGKILL 9 /* the OOM killer: status 137 */
#endif

#define OOM_SCORE_ADJ_MIN (-1000) /* oom_score_adj of a task the OOM killer never picks */

struct task_struct {
	int pid;
	char comm[TASK_COMM_LEN];
	volatile long state;
	unsigned int flags;
	int exit_code;
	bool sigkill;            /* kill requested (Ctrl-C, kill): sleeps return -EINTR */
	u8 kill_signal;          /* SIGINT or SIGKILL (which no later kill masks); 0: none */
	short oom_score_adj;     /* OOM_SCORE_ADJ_MIN: never an OOM victim (the console shell) */
	bool on_rq;              /* runnable on a run queue: queued, or running (its rq's lock) */
	bool on_cpu;             /* running, or still switching away (its stack is in use) */
	bool switched_out;       /* dead and off the CPU: its stack may be freed */
	unsigned int cpu;        /* the run queue it is on or last ran on */
	unsigned long cpus_mask; /* the CPUs it may run on (cpumask_t) */
	spinlock_t pi_lock;      /* serialises its wake-ups and moves between CPUs */

	struct list_head run_list;
	struct list_head tasks; /* all tasks, for ps */

	int (*fn)(void *);
	void *arg;
	/*
	 * Called by do_exit() with the exit code once the task's files, directory and cgroup
	 * are released, as Linux tells the parent only then: a shell waiting for its command
	 * may unmount what the command had open as soon as it is woken.
	 */
	void (*exit_notify)(void *arg, int code);
	void *exit_notify_arg;

	u64 start_ns;    /* creation time */
	u64 sum_exec_ns; /* CPU time used */
	u64 last_ran_ns;
	u64 slice_start_ns;          /* when its current time slice began */
	u64 vruntime;                /* CPU time had, for fair picking (kernel/sched-core.c) */
	unsigned long nr_switches;   /* times switched away from (the hung-task detector) */
	unsigned long hung_switches; /* nr_switches when the detector last looked */
	u64 hung_since_ns;           /* since then it has not run */
	bool hung_reported;          /* reported once for this sleep */

	/* memory reclaim (mm/vmscan.c), set by the task itself */
	bool memalloc_nofs; /* its allocations may not enter a filesystem (memalloc_nofs_save) */
	bool in_reclaim;    /* running reclaim's shrinkers: no reclaim from inside them */

	struct cgroup *cgroup;             /* cgroup membership (root until moved) */
	struct file *files[TASK_NR_FILES]; /* 0 stdin, 1 stdout, 2 stderr, ... */
	void *shell;                       /* the shell that runs this task, if any */
	struct fs_struct *fs;              /* working directory (NULL: the root) */
	struct mm_struct *mm;              /* a program's memory (sys/), or NULL */
	struct user_thread *uthread;       /* a program's registers (<cgwb/user.h>), or NULL */
	struct program *program;           /* a program's parent and children (sys/), or NULL */
	struct task_signal *signal;        /* a program thread's handlers, mask, pending (sys/) */

	/* a program's descriptor table once CLONE_FILES shares it (sys/files.c), or NULL; the
	 * files the system call in progress looked up there: the first few in the task, the
	 * others (a poll of many) in a list */
	struct files_struct *files_shared;
	struct file *files_held[TASK_FILES_HELD];
	unsigned int nr_files_held;
	struct borrowed_file *files_borrowed;

	struct task_sleep_flush *sleep_flush; /* what to send before sleeping (the block plug) */

	/* pressure stall information (kernel/psi.c) */
	struct psi_group *psi_group; /* its cgroup's (NULL: psi_system) */
	unsigned int psi_flags;      /* TSK_*: what it counts as there */
	bool in_iowait;              /* sleeping for IO (io_schedule_prepare) */
	bool in_memstall;            /* in psi_memstall_enter() */

	/* dirty throttling (mm/page-writeback.c) */
	int nr_dirtied;
	int nr_dirtied_pause;
	unsigned long dirty_paused_when;

	/* platform: saved stack pointer and stack, or the host's context */
	unsigned long sp;
	void *stack;
	size_t stack_size;
	void *platform;
};

struct psi_group;

/* The task this CPU runs (per CPU, <cgwb/percpu.h>). */
#define current get_current()

/*
 * The floors above the scheduler keep state in each task (its files and directory, its
 * cgroup, its dirty-throttling counts): they hook into its life here instead of the
 * scheduler calling up into them. init runs for a new task before it first runs (in
 * registration order); exit as it ends, once its function returned (in the reverse order,
 * so what registered first is released last). Registered once, at start-up.
 */
struct task_hooks {
	void (*init)(struct task_struct *task);
	void (*exit)(struct task_struct *task);
};
/**
 * register_task_hooks() - hook a floor into every task's life
 * @hooks: the hooks, static; registering them twice does nothing
 *
 * Tasks created from then on run @hooks->init; tasks that end run @hooks->exit.
 *
 * Context: start-up, once; the table is not locked.
 */
void register_task_hooks(const struct task_hooks *hooks);

/*
 * What a CPU does before it idles, interrupts off (Linux's do_idle() calls quiet_vmstat()):
 * a floor above registers it, once, at start-up.
 */
/**
 * register_cpu_idle_hook() - set what a CPU does before it idles
 * @fn: the hook, called with interrupts off (it must not sleep); it replaces any before
 *
 * Context: start-up, once.
 */
void register_cpu_idle_hook(void (*fn)(void));

/*
 * Work a task holds back and must send before it sleeps (Linux's sched_submit_work()):
 * the block layer's plug embeds one and sets fn; schedule() calls it for a task that goes
 * to sleep, or whoever waits for those bios might be what this task waits for.
 */
struct task_sleep_flush {
	void (*fn)(struct task_sleep_flush *flush);
};

/**
 * kthread_create() - create a kernel task, not running yet
 * @fn: what it runs; its return value is the task's exit code
 * @arg: passed to @fn
 * @fmt: the printf format of its name (comm)
 * @...: the format's arguments
 *
 * The task starts on the creator's CPU, level with its least-served task, once
 * wake_up_process() wakes it (kthread_run() does both). The task hooks' init runs here,
 * in the creator's context. Someone joins it (kthread_join()) or it is detached
 * (kthread_detach()).
 *
 * Context: process context; may sleep.
 * Return: the task, or NULL without memory (not an ERR_PTR).
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *fmt, ...) __printf(3, 4);
/**
 * set_current_comm() - rename the current task
 * @name: the new name (truncated to TASK_COMM_LEN - 1); a program's exec gives its file's
 *        base name
 *
 * Readers take no lock: one that races may see a mix of both names for that instant.
 *
 * Context: task context.
 */
void set_current_comm(const char *name);
/* Create and wake at once (Linux's macro). */
#define kthread_run(fn, arg, fmt, ...)                                                 \
	({                                                                             \
		struct task_struct *__k = kthread_create(fn, arg, fmt, ##__VA_ARGS__); \
		if (__k)                                                               \
			wake_up_process(__k);                                          \
		__k;                                                                   \
	})
/**
 * kthread_join() - wait for a task to exit, then free it
 * @task: the task, not detached, not the caller
 *
 * Context: process context; sleeps (uninterruptibly).
 * Return: its exit code.
 */
int kthread_join(struct task_struct *task);
/**
 * kthread_join_killable() - kthread_join(), unless the caller is killed meanwhile
 * @task: the task, not detached, not the caller
 * @exit_code: set to its exit code when it was joined
 *
 * Context: process context; sleeps.
 * Return: 0 once joined; -EINTR if the caller was killed first (the task is then
 * detached, freed when it exits).
 */
int kthread_join_killable(struct task_struct *task, int *exit_code);
/**
 * kthread_detach() - nobody will join a task: it is freed when it exits
 * @task: the task; one that has exited already is freed now
 *
 * Context: any task context; never sleeps.
 */
void kthread_detach(struct task_struct *task);

/*
 * What else the kernel's report of every task prints (an NMI asks for it: the host does
 * before it kills a guest that timed out; kernel/platform/hung_task.c): state that tells why
 * tasks wait, as the block layer's requests in flight. Registered once, never removed.
 */
struct show_state_hook {
	void (*show)(void);
	struct show_state_hook *next;
};
/**
 * register_show_state_hook() - add to the kernel's report of every task
 * @hook: the hook, static; never removed
 *
 * Context: process context; never sleeps.
 */
void register_show_state_hook(struct show_state_hook *hook);
__noreturn void do_exit(int code);

/**
 * schedule() - let the CPU run another task
 *
 * A task that set itself asleep (set_current_state()) first sends what its block plug
 * holds (Linux's sched_submit_work()), then sleeps until woken; a task still
 * TASK_RUNNING stays runnable and is picked again in its turn.
 *
 * Context: task context, preemption and interrupts on (scheduling while atomic panics).
 */
void schedule(void);
void yield(void);
/**
 * cond_resched() - give way if a reschedule is due
 *
 * Also a quiescent state for RCU, as Linux's rcu_all_qs(): long loops call it. Does
 * nothing in atomic context.
 *
 * Context: any context; may sleep when called preemptible.
 */
void cond_resched(void);
/**
 * need_resched() - is a reschedule due on this CPU?
 *
 * The 'N' of a trace line's flags.
 *
 * Context: any context.
 * Return: true if it is.
 */
bool need_resched(void);
/**
 * wake_up_process() - wake a sleeping task
 * @task: the task (interruptible or uninterruptible sleep)
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: true if it was asleep and is now runnable, false if it was running already.
 */
bool wake_up_process(struct task_struct *task);
bool wake_up_state(struct task_struct *task, long state);

#define __set_current_state(s)        \
	do {                          \
		current->state = (s); \
	} while (0)
#define set_current_state(s)                     \
	do {                                     \
		WRITE_ONCE(current->state, (s)); \
		smp_mb();                        \
	} while (0)

/*
 * A sleep for IO (Linux's io_schedule()): pressure stall information counts it as an IO
 * stall. token = io_schedule_prepare(); ...wait...; io_schedule_finish(token).
 */
static inline int io_schedule_prepare(void)
{
	int old = current->in_iowait;

	current->in_iowait = true;
	return old;
}
static inline void io_schedule_finish(int token)
{
	current->in_iowait = token;
}
/* wait_event() as an IO wait */
#define io_wait_event(wq, cond)                    \
	do {                                       \
		int __tok = io_schedule_prepare(); \
		wait_event(wq, cond);              \
		io_schedule_finish(__tok);         \
	} while (0)

/**
 * schedule_timeout() - sleep, in the state the caller set, up to a timeout
 * @timeout: the timeout in jiffies; MAX_SCHEDULE_TIMEOUT for none
 *
 * Context: task context, preemptible; sleeps.
 * Return: the jiffies left (0 if it timed out); @timeout for MAX_SCHEDULE_TIMEOUT.
 */
long schedule_timeout(long timeout);
/**
 * schedule_timeout_interruptible() - sleep up to a timeout, a signal ending the sleep
 * @timeout: the timeout in jiffies
 *
 * Context: task context, preemptible; sleeps.
 * Return: the jiffies left (0 if it timed out).
 */
long schedule_timeout_interruptible(long timeout);
/**
 * schedule_timeout_uninterruptible() - sleep up to a timeout, or until woken
 * @timeout: the timeout in jiffies
 *
 * Context: task context, preemptible; sleeps.
 * Return: the jiffies left (0 if it timed out).
 */
long schedule_timeout_uninterruptible(long timeout);
#define MAX_SCHEDULE_TIMEOUT ((long)(~0UL >> 1))
/**
 * msleep() - sleep at least a number of milliseconds, uninterruptibly
 * @ms: the milliseconds
 *
 * Measured on the monotonic clock: an early wake-up sleeps again for what is left.
 *
 * Context: task context, preemptible; sleeps.
 */
void msleep(unsigned int ms);
/**
 * msleep_interruptible() - sleep a number of milliseconds, unless a signal comes
 * @ms: the milliseconds
 *
 * Context: task context, preemptible; sleeps.
 * Return: the milliseconds left if a signal ended the sleep early, else 0.
 */
unsigned long msleep_interruptible(unsigned int ms);

/* sigkill is Linux's TIF_SIGPENDING: a kill, or a signal a program's handler is to take. */
static inline bool signal_pending(const struct task_struct *t)
{
	return READ_ONCE(t->sigkill);
}
/* A kill that ends the task, not a signal a handler takes (which leaves kill_signal 0). */
static inline bool fatal_signal_pending(const struct task_struct *t)
{
	return READ_ONCE(t->sigkill) && READ_ONCE(t->kill_signal);
}
/*
 * Send signal sig: to a program's thread (t->signal set), as the system-call layer's hook
 * decides (a handler, a mask, an ignored signal); to any other task, and for the hook's
 * kills, a kill with sig (status 128 + sig): interruptible and killable sleeps end with
 * -EINTR. send_sig_kill() is send_sig(SIGINT, task), what Ctrl-C sends.
 */
/**
 * send_sig() - send a signal to a task
 * @sig: the signal
 * @task: the task
 *
 * As the comment above says: a program's thread through the system-call layer's hook,
 * any other task (and the hook's refusals) killed with @sig.
 *
 * Context: any context; never sleeps.
 */
void send_sig(int sig, struct task_struct *task);
/**
 * send_sig_kill() - send SIGINT to a task (what Ctrl-C sends)
 * @task: the task
 *
 * Context: any context; never sleeps.
 */
void send_sig_kill(struct task_struct *task);
/**
 * task_kill() - kill a task, whatever a program's handlers say
 * @sig: the signal; the first one is the one reported (exit status 128 + sig), but
 *       SIGKILL overrides
 * @task: the task
 *
 * The hook's way to end a thread. Interruptible and killable sleeps end with -EINTR.
 *
 * Context: any context; never sleeps.
 */
void task_kill(int sig, struct task_struct *task);
/**
 * send_sig_register() - register the system-call layer's signal hook
 * @hook: returns true if it took the signal for a program's thread, false to have it kill
 *        the task
 *
 * Context: start-up, once.
 */
void send_sig_register(bool (*hook)(int sig, struct task_struct *task));
/**
 * signal_wake_up() - a program's thread has a signal to take
 * @task: the task; its sigkill is set and an interruptible sleep of it ends
 *
 * Context: any context; never sleeps.
 */
void signal_wake_up(struct task_struct *task);

/* The CPU the task runs or last ran on. */
static inline unsigned int task_cpu(const struct task_struct *t)
{
	return READ_ONCE(t->cpu);
}
/*
 * Let the task run only on the CPUs in mask (sched_setaffinity): -EINVAL if none of them is
 * online. A task running elsewhere moves at its next switch.
 */
/**
 * set_cpus_allowed() - let a task run only on some CPUs (sched_setaffinity)
 * @task: the task
 * @mask: the CPUs, one bit each
 *
 * A queued task is placed again at once; a running one moves when it next wakes up.
 *
 * Context: any task context; takes the task's run-queue lock; never sleeps.
 * Return: 0, or -EINVAL if none of @mask's CPUs is online.
 */
int set_cpus_allowed(struct task_struct *task, unsigned long mask);

/*
 * As Linux's memalloc_nofs_save()/restore(): until the restore, the current task's
 * allocations do not enter a filesystem when they reclaim (a journal handle is open, and
 * evicting an inode would wait for the commit that waits for this handle).
 */
static inline bool memalloc_nofs_save(void)
{
	bool old = current->memalloc_nofs;

	current->memalloc_nofs = true;
	return old;
}

static inline void memalloc_nofs_restore(bool old)
{
	current->memalloc_nofs = old;
}

/* Task table. */
/**
 * for_each_task() - call a function for each task
 * @fn: called with each task and @arg, with the task list locked and interrupts off: it
 *      must not sleep
 * @arg: passed to @fn
 *
 * Context: any context.
 */
void for_each_task(void (*fn)(struct task_struct *, void *), void *arg);
/**
 * find_task_by_pid() - the task with a pid
 * @pid: the pid
 *
 * No reference is taken: the result is only stable while the task cannot exit (its own
 * code, or a joiner that has not joined).
 *
 * Context: any context; never sleeps.
 * Return: the task, or NULL.
 */
struct task_struct *find_task_by_pid(int pid);
/**
 * kill_pid() - signal a user task by pid
 * @pid: the pid
 * @sig: the signal (send_sig()); 0 only asks whether it exists
 *
 * Kernel threads serve everybody: a user may not signal them.
 *
 * Context: any context; never sleeps.
 * Return: 0, -ESRCH if there is no such task, or -EPERM for a kernel thread.
 */
int kill_pid(int pid, int sig);
/**
 * task_state_name() - a task's state as ps shows it
 * @t: the task
 *
 * Context: any context.
 * Return: "R", "S", "D", "I", "Z", or "?" (static).
 */
const char *task_state_name(const struct task_struct *t);
/**
 * nr_tasks() - how many tasks exist
 *
 * Context: any context.
 * Return: the count.
 */
unsigned int nr_tasks(void);
/**
 * nr_running() - how many tasks are runnable or running (/proc/stat's procs_running)
 *
 * Idle tasks do not count. An unlocked sum: it may be off for an instant.
 *
 * Context: any context.
 * Return: the count.
 */
unsigned int nr_running(void);
/**
 * nr_context_switches() - context switches so far, every CPU's (/proc/stat's ctxt)
 *
 * Context: any context.
 * Return: the count.
 */
u64 nr_context_switches(void);
/**
 * cpu_idle_time_ns() - the time a CPU's idle task has run, the current stretch included
 * @cpu: the CPU
 *
 * Context: any context; takes the CPU's run-queue lock; never sleeps.
 * Return: the time in ns (0 without an idle task, as on the host).
 */
u64 cpu_idle_time_ns(unsigned int cpu);

#endif
