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
void register_task_hooks(const struct task_hooks *hooks);

/*
 * What a CPU does before it idles, interrupts off (Linux's do_idle() calls quiet_vmstat()):
 * a floor above registers it, once, at start-up.
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

struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *fmt, ...) __printf(3, 4);
/* Rename current (a program's exec: its file's base name). Readers take no lock: one that
 * races may see a mix of both names for that instant. */
void set_current_comm(const char *name);
/* Create and wake at once (Linux's macro). */
#define kthread_run(fn, arg, fmt, ...)                                                 \
	({                                                                             \
		struct task_struct *__k = kthread_create(fn, arg, fmt, ##__VA_ARGS__); \
		if (__k)                                                               \
			wake_up_process(__k);                                          \
		__k;                                                                   \
	})
/* Wait for a (non-detached) task to exit, free it, and return its exit code. */
int kthread_join(struct task_struct *task);
/* Like join, but gives up (returning -EINTR) if the caller is killed; the task is then detached. */
int kthread_join_killable(struct task_struct *task, int *exit_code);
/* Nobody will join: the task is freed when it exits. */
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
void register_show_state_hook(struct show_state_hook *hook);
__noreturn void do_exit(int code);

void schedule(void);
void yield(void);
void cond_resched(void);
/* A reschedule is due (the 'N' of a trace line's flags). */
bool need_resched(void);
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

/* Sleep up to timeout jiffies in the current state; returns the jiffies left (0 = timed out). */
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
#define MAX_SCHEDULE_TIMEOUT ((long)(~0UL >> 1))
void msleep(unsigned int ms);
/* Returns the milliseconds left if woken early by a kill, else 0. */
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
void send_sig(int sig, struct task_struct *task);
void send_sig_kill(struct task_struct *task);
/* The kill itself, whatever a program's handlers say (the hook's way to end a thread). */
void task_kill(int sig, struct task_struct *task);
/* The hook: true if it took the signal, false to have it kill the task. */
void send_sig_register(bool (*hook)(int sig, struct task_struct *task));
/* sigkill set and an interruptible sleep ended: a program's thread has a signal to take. */
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

/* Task table. The callback runs with the task list locked and must not sleep. */
void for_each_task(void (*fn)(struct task_struct *, void *), void *arg);
/* Only stable while the task cannot exit (its own code, or a joiner that has not joined). */
struct task_struct *find_task_by_pid(int pid);
/* Signal a user task by pid (sig 0: only whether it exists): 0, -ESRCH or -EPERM. */
int kill_pid(int pid, int sig);
const char *task_state_name(const struct task_struct *t);
unsigned int nr_tasks(void);
/* /proc/stat: runnable tasks, switches on every CPU, a CPU's time in its idle task. */
unsigned int nr_running(void);
u64 nr_context_switches(void);
u64 cpu_idle_time_ns(unsigned int cpu);

#endif
