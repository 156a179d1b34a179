/*
 * Processes (Linux's kernel/fork.c, exit.c): a program's children, fork and wait4.
 *
 * - A program started by the shell has no parent (the shell waits for its task as for any
 *   command); a forked one has the forking program as its parent until that parent ends.
 * - fork copies the address space (copy-on-write: sys/memory.c), the thread's registers
 *   (the child returns 0), every descriptor, the cgroup, the working directory and the
 *   CPUs it may use. clone and clone3 make a thread (CLONE_VM | CLONE_SIGHAND |
 *   CLONE_THREAD), or else fork, with the tid words a C library's fork asks for
 *   (CLONE_CHILD_CLEARTID means nothing for a process whose memory goes with it) and
 *   CLONE_FILES (the descriptor table shared: files.c); what else they ask is -ENOSYS.
 * - vfork (CLONE_VM | CLONE_VFORK): the child runs on the parent's memory, on its stack
 *   too, and the parent sleeps until the child's execve or end lets it go (killable: a
 *   killed parent takes its completion back under program_lock first, since the
 *   completion lives on its stack; a handled signal waits). posix_spawn relies on both: its child reports a failed
 *   execve through the memory they share.
 * - A child that ends stays, with its wait status, until its parent's wait4 reaps it (its
 *   task is joined then). A parent that ends reaps the children that ended and lets the
 *   others go (their tasks detached: they free themselves); one ended by a signal kills them
 *   with it first (their handlers aside), as the shell's job, its process group, ends. A
 *   child's end sends its parent its exit signal (SIGCHLD but for clone's choice).
 *
 * program_lock covers every program's parent, children and exit fields. A child's task
 * notifies its end after its files are closed (exit_notify), so a parent that reaped it
 * sees a pipe's writer gone.
 */
#include <cgwb/sched.h>
#include <cgwb/cgroup.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/pipe.h>
#include <cgwb/slab.h>
#include <cgwb/wait.h>
#include <cgwb/completion.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include "internal.h"
#include "signal.h"

#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000
#define WAIT4_OPTIONS (WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL)
#define CLONE_VM 0x100
#define CLONE_VFORK 0x4000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000
#define CSIGNAL 0xff
#define CLONE_FS 0x200
#define CLONE_FILES 0x400
#define CLONE_FORK_FLAGS                                                                 \
	(CSIGNAL | CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
	 CLONE_CHILD_SETTID | CLONE_FILES)
#define CLONE_SIGHAND 0x800
#define CLONE_THREAD 0x10000
#define CLONE_SYSVSEM 0x40000
#define CLONE_SETTLS 0x80000
#define CLONE_PIDFD 0x1000
#define CLONE_NEWNS 0x20000
#define CLONE_DETACHED 0x00400000
#define CLONE_NEWUSER 0x10000000
#define CLONE_NEWPID 0x20000000
#define CLONE_THREAD_NEEDS (CLONE_VM | CLONE_SIGHAND | CLONE_THREAD)
#define CLONE_THREAD_FLAGS                                                            \
	(CLONE_THREAD_NEEDS | CLONE_FS | CLONE_FILES | CLONE_SYSVSEM | CLONE_SETTLS | \
	 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID)

struct program {
	struct task_struct *task;       /* the process's first thread: its pid is the process's */
	int tgid;                       /* that pid, which getpid() returns in every thread */
	int refs;                       /* its threads' and the parent's (atomic) */
	int nr_threads;                 /* threads but the first, running (atomic) */
	wait_queue_head_t threads_gone; /* the first thread waits here for the others' end */
	bool group_exiting;             /* exit_group: every thread ends with group_wstatus */
	int group_wstatus;
	struct program *parent; /* NULL: the shell's, or orphaned */
	struct list_head children;
	struct list_head sibling; /* in the parent's children */
	bool forked;              /* its task reports its end (program_exited) */
	int exit_signal;          /* sent to the parent at its end (0: none) */
	bool exited;
	int wstatus;
	wait_queue_head_t child_exit;  /* its children's ends wake it */
	struct completion *vfork_done; /* CLONE_VFORK: the parent waits on it (program_lock) */
};

static DEFINE_SPINLOCK(program_lock);

struct program *program_alloc(struct program *parent)
{
	struct program *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->task = current;
	p->tgid = current->pid;
	p->refs = 1;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	init_waitqueue_head(&p->child_exit);
	init_waitqueue_head(&p->threads_gone);
	if (parent) {
		p->parent = parent;
		p->forked = true;
		spin_lock(&program_lock);
		list_add_tail(&p->sibling, &parent->children);
		spin_unlock(&program_lock);
	}
	return p;
}

static void program_get(struct program *p)
{
	__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
}

static void program_put(struct program *p)
{
	if (!__atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL))
		kfree(p);
}

/* A child that never got its task. */
static void program_unlink_free(struct program *p)
{
	spin_lock(&program_lock);
	list_del(&p->sibling);
	spin_unlock(&program_lock);
	program_put(p);
}

/* Its exit signal (SIGCHLD but for clone's) to the parent's process (dropped unless it has a
 * handler or blocks it). */
static void signal_child_exit(struct task_struct *parent, int sig, int pid, int wstatus)
{
	struct kernel_siginfo info = { .signo = sig, .pid = pid, .trapno = -1 };

	if (!sig)
		return;
	info.code = wstatus & 0x7f ? CLD_KILLED : CLD_EXITED;
	info.status = wstatus & 0x7f ? wstatus & 0x7f : (wstatus >> 8) & 0xff;
	send_signal(sig, &info, parent, true);
}

/*
 * A parent that ignores SIGCHLD (SIG_IGN, SA_NOCLDWAIT) has its child reaped at its end, as
 * Linux's do_notify_parent(): no wait status is kept, the task frees itself, and a wait4
 * that waited for it is woken to find it gone (-ECHILD once no child is left).
 */
static bool autoreap(struct program *p, struct program *parent, int wstatus)
{
	bool send = false;

	if (p->exit_signal != SIGCHLD || !sigchld_autoreap(parent->task, &send))
		return false;
	list_del_init(&p->sibling);
	p->parent = NULL;
	wake_up(&parent->child_exit);
	if (send)
		signal_child_exit(parent->task, SIGCHLD, p->tgid, wstatus);
	kthread_detach(current); /* exit_notify runs in the child's task, on its way out */
	return true;
}

/* A forked program's task has ended (its files closed): tell the parent, or go. */
static void program_exited(void *arg, int wstatus)
{
	struct program *p = arg;
	struct program *parent;
	bool gone;

	spin_lock(&program_lock);
	parent = p->parent;
	gone = !parent || autoreap(p, parent, wstatus);
	if (!gone) {
		p->wstatus = wstatus;
		WRITE_ONCE(p->exited, true);
		wake_up(&parent->child_exit);
		signal_child_exit(parent->task, p->exit_signal, p->tgid, wstatus);
	}
	spin_unlock(&program_lock);
	if (gone)
		program_put(p); /* orphaned or reaped: its task was detached and frees itself */
}

static void reap(struct program *child)
{
	kthread_join(child->task);
	program_put(child);
}

void program_release_children(int wstatus)
{
	struct program *p = current->program, *c, *n;
	LIST_HEAD(ended);

	spin_lock(&program_lock);
	list_for_each_entry_safe(c, n, &p->children, sibling) {
		list_del_init(&c->sibling);
		if (c->exited) {
			list_add_tail(&c->sibling, &ended);
			continue;
		}
		c->parent = NULL;
		/* a kill whatever their handlers: the shell's own ignore SIGINT (POSIX's
		 * background commands), and their job is over */
		if (wstatus & 0x7f)
			task_kill(wstatus & 0x7f, c->task);
		kthread_detach(c->task);
	}
	spin_unlock(&program_lock);
	list_for_each_entry_safe(c, n, &ended, sibling)
		reap(c);
	if (!p->forked) {
		current->program = NULL;
		program_put(p);
	}
}

int program_ppid(void)
{
	struct program *p = current->program;
	int ppid;

	spin_lock(&program_lock);
	ppid = p && p->parent ? p->parent->tgid : 1;
	spin_unlock(&program_lock);
	return ppid;
}

/*
 * Run current's thread until it ends; the first thread's end is its process's: the other
 * threads are killed (exit_group's or not) and its children reaped or let go.
 */
int program_run(struct pt_regs *regs)
{
	int wstatus = user_thread_run(regs);
	bool leader = program_is_leader();

	signal_exit();
	thread_clear_child_tid();
	if (leader) {
		program_leader_group_exit();
		program_kill_threads();
		program_wait_threads(); /* its end is the process's: every thread gone first */
	}
	files_put_borrowed(); /* a call that never returned (exit_group) */
	files_unshare();      /* do_exit() closes the task's files[] */
	user_thread_free(current->uthread);
	mm_put(current->mm);
	current->mm = NULL;
	program_vfork_release();
	if (leader)
		program_release_children(wstatus);
	else
		program_thread_exit();
	return wstatus;
}

__noreturn void program_exit(int wstatus)
{
	user_thread_leave(wstatus);
}

/* ---------------------------------------------------------------- fork */

struct fork_start {
	struct pt_regs regs;
	struct mm_struct *mm;
	struct user_thread *ut;
	struct program *prog;
	struct task_signal *sig;
};

static int forked_main(void *data)
{
	struct fork_start *fs = data;
	struct pt_regs regs = fs->regs;

	current->mm = fs->mm;
	current->uthread = fs->ut;
	current->program = fs->prog;
	kfree(fs);
	return program_run(&regs);
}

/*
 * CLONE_FILES: the table shared (files_make_shared() done), else a copy. CLONE_FS: the
 * working directory shared (without memory for it, a copy, which needs none).
 */
static void inherit(struct task_struct *t, u64 flags)
{
	if (flags & CLONE_FILES)
		files_share_with(t);
	else
		files_copy_to(t);
	cgroup_attach_task(current->cgroup, t);
	if (!(flags & CLONE_FS) || task_share_fs(t, current))
		task_copy_fs(t, current);
	t->cpus_mask = current->cpus_mask;
	t->oom_score_adj = current->oom_score_adj;
}

/* The tid words a C library's fork or pthread_create asks clone to write. */
static void set_tids(u64 flags, u64 ptid, u64 ctid, struct mm_struct *child_mm, int tid)
{
	if ((flags & CLONE_CHILD_SETTID) && mm_copy_to(child_mm, ctid, &tid, sizeof(tid)))
		pr_info("%s[%d]: clone: CLONE_CHILD_SETTID at a bad address\n", current->comm,
			current->pid);
	if ((flags & CLONE_PARENT_SETTID) && copy_to_user(ptid, &tid, sizeof(tid)))
		pr_info("%s[%d]: clone: CLONE_PARENT_SETTID at a bad address\n", current->comm,
			current->pid);
}

void program_vfork_release(void)
{
	struct program *p = current->program;

	if (!p || !READ_ONCE(p->vfork_done))
		return;
	spin_lock(&program_lock);
	if (p->vfork_done)
		complete(p->vfork_done);
	p->vfork_done = NULL;
	spin_unlock(&program_lock);
}

/*
 * The vfork parent's sleep: until the child lets it go, or a kill ends the parent (Linux's
 * TASK_KILLABLE). A signal a handler takes must not end it (the child is on the parent's
 * stack), and an interruptible sleep here would end at once while such a signal waits:
 * the sleep is uninterruptible, and looks for a kill every tenth of a second.
 */
static void wait_for_vfork_done(struct program *child, struct completion *done)
{
	while (!wait_for_completion_timeout(done, HZ / 10)) {
		if (fatal_signal_pending(current)) {
			spin_lock(&program_lock);
			child->vfork_done = NULL;
			spin_unlock(&program_lock);
			return;
		}
	}
}

static long do_fork(u64 flags, u64 stack, u64 ptid, u64 ctid, int exit_signal)
{
	struct fork_start *fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	struct completion vfork;
	struct program *child;
	struct task_struct *t;
	long err;

	if (!fs)
		return -ENOMEM;
	fs->regs = *current_user_regs();
	fs->regs.rax = 0; /* the child's fork() returns 0 */
	if (stack)
		fs->regs.rsp = stack;
	if (flags & CLONE_VM)
		mm_get(current->mm);
	fs->mm = flags & CLONE_VM ? current->mm : mm_dup(current->mm);
	fs->ut = fs->mm ? user_thread_fork(fs->mm->pgd) : NULL;
	fs->sig = fs->ut ? signal_alloc(false) : NULL;
	err = fs->sig ? pids_fork_begin(current->cgroup) : -ENOMEM;
	fs->prog = err ? NULL : program_alloc(current->program);
	t = fs->prog ? kthread_create(forked_main, fs, "%s", current->comm) : NULL;
	if (!t) {
		if (!err)
			pids_fork_end();
		if (fs->prog)
			program_unlink_free(fs->prog);
		signal_free(fs->sig);
		if (fs->ut)
			kfree(fs->ut);
		if (fs->mm)
			mm_put(fs->mm);
		kfree(fs);
		return err ? err : -ENOMEM;
	}
	fs->prog->task = t;
	fs->prog->tgid = t->pid;
	fs->prog->exit_signal = exit_signal;
	signal_attach(t, fs->sig, t->pid);
	set_tids(flags, ptid, ctid, fs->mm, t->pid);
	inherit(t, flags);
	pids_fork_end(); /* the child counts in its group now */
	t->exit_notify = program_exited;
	t->exit_notify_arg = fs->prog;
	child = fs->prog; /* fs is the child's from here */
	if (flags & CLONE_VFORK) {
		init_completion(&vfork);
		child->vfork_done = &vfork;
	}
	err = t->pid;
	wake_up_process(t);
	if (flags & CLONE_VFORK)
		wait_for_vfork_done(child, &vfork); /* the parent's reference keeps child */
	return err;
}

static long sys_fork(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return do_fork(0, 0, 0, 0, SIGCHLD);
}

static long sys_vfork(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return do_fork(CLONE_VM | CLONE_VFORK, 0, 0, 0, SIGCHLD);
}

/* ---------------------------------------------------------------- threads */

struct thread_start {
	struct pt_regs regs;
	struct mm_struct *mm;
	struct user_thread *ut;
	struct program *prog;
	struct task_signal *sig;
};

static int thread_main(void *data)
{
	struct thread_start *ts = data;
	struct pt_regs regs = ts->regs;

	current->mm = ts->mm;
	current->uthread = ts->ut;
	current->program = ts->prog;
	kfree(ts);
	return program_run(&regs);
}

static long do_clone_thread(u64 flags, u64 stack, u64 ptid, u64 ctid, u64 tls)
{
	struct thread_start *ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	struct task_struct *t = NULL;
	long err = ts ? 0 : -ENOMEM;
	int tid;

	if (!err) {
		ts->regs = *current_user_regs();
		ts->regs.rax = 0; /* the new thread's clone() returns 0 */
		if (stack)
			ts->regs.rsp = stack;
		ts->ut = user_thread_fork(current->mm->pgd);
		ts->sig = ts->ut ? signal_alloc(true) : NULL;
		err = ts->sig ? pids_fork_begin(current->cgroup) : -ENOMEM;
	}
	if (!err) {
		t = kthread_create(thread_main, ts, "%s", current->comm);
		if (!t)
			pids_fork_end();
	}
	if (!t) {
		if (ts) {
			signal_free(ts->sig);
			kfree(ts->ut);
		}
		kfree(ts);
		return err ? err : -ENOMEM;
	}
	if (flags & CLONE_SETTLS)
		ts->ut->fs_base = tls;
	mm_get(current->mm);
	ts->mm = current->mm;
	program_get(current->program);
	__atomic_add_fetch(&current->program->nr_threads, 1, __ATOMIC_RELAXED);
	ts->prog = current->program;
	tid = t->pid;
	signal_attach(t, ts->sig, program_tgid());
	/*
	 * The thread is its process's before it first runs, so that an exit_group or execve
	 * killing the process's threads meanwhile finds it: each side writes (the thread's
	 * program here, group_exiting there), then reads the other's.
	 */
	WRITE_ONCE(t->program, ts->prog);
	smp_mb();
	if (READ_ONCE(ts->prog->group_exiting))
		send_sig(SIGKILL, t);
	if (flags & CLONE_CHILD_CLEARTID)
		ts->ut->clear_child_tid = ctid;
	set_tids(flags, ptid, ctid, ts->mm, tid); /* a thread's mm is the parent's */
	inherit(t, flags);
	pids_fork_end();
	kthread_detach(t); /* nobody joins a thread's task: its futex word says it ended */
	wake_up_process(t);
	return tid;
}

/* The combinations Linux's copy_process() refuses (-EINVAL), in its order. */
static long clone_flags_check(u64 flags)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && (flags & (CLONE_NEWUSER | CLONE_NEWPID)))
		return -EINVAL;
	if ((flags & CLONE_PIDFD) && (flags & (CLONE_DETACHED | CLONE_THREAD)))
		return -EINVAL;
	return 0;
}

long kernel_clone(u64 flags, u64 stack, u64 ptid, u64 ctid, u64 tls, int exit_signal)
{
	long err = clone_flags_check(flags);

	if (!err && (flags & CLONE_FILES))
		err = files_make_shared(); /* before the child: nothing to undo if it fails */
	if (err)
		return err;
	if ((flags & CLONE_THREAD_NEEDS) == CLONE_THREAD_NEEDS && !(flags & ~(u64)CLONE_THREAD_FLAGS))
		return do_clone_thread(flags, stack, ptid, ctid, tls);
	if ((flags & ~(u64)CLONE_FORK_FLAGS) || ((flags & CLONE_VM) && !(flags & CLONE_VFORK)))
		return -ENOSYS; /* shared memory without a thread group, namespaces, pidfds... */
	return do_fork(flags, stack, ptid, ctid, exit_signal);
}

/* clone's low byte is the exit signal; clone3's is a field of its own (sys_clone3.c). */
static long sys_clone(u64 flags, u64 stack, u64 ptid, u64 ctid, u64 tls, u64 a5)
{
	return kernel_clone(flags & ~(u64)CSIGNAL, stack, ptid, ctid, tls, (int)(flags & CSIGNAL));
}

void thread_clear_child_tid(void)
{
	struct user_thread *ut = current->uthread;
	u32 zero = 0;

	if (!ut->clear_child_tid)
		return;
	/* its program's page tables are still loaded: pthread_join's word is reachable */
	if (!copy_to_user(ut->clear_child_tid, &zero, sizeof(zero)))
		futex_wake(current->mm, ut->clear_child_tid, 1, ~0u);
}

static void kill_thread(struct task_struct *t, void *arg)
{
	if (t->program == arg && t != current)
		send_sig(SIGKILL, t);
}

void program_kill_threads(void)
{
	for_each_task(kill_thread, current->program)
		;
}

static bool threads_gone(struct program *p)
{
	return !__atomic_load_n(&p->nr_threads, __ATOMIC_ACQUIRE);
}

void program_wait_threads(void)
{
	struct program *p = current->program;

	wait_event(p->threads_gone, threads_gone(p));
}

/* The threads killed here end as a process's end would end them (group_exiting: none of
 * them ends the process in turn); the flag goes once they are gone. */
void program_de_thread(void)
{
	struct program *p = current->program;

	if (!p || p->task != current || threads_gone(p))
		return;
	WRITE_ONCE(p->group_exiting, true);
	smp_mb(); /* against a thread being cloned: do_clone_thread() */
	program_kill_threads();
	program_wait_threads();
	WRITE_ONCE(p->group_exiting, false);
}

__noreturn void program_exit_thread(int wstatus)
{
	struct program *p = current->program;

	if (p && p->task == current)
		exit_signals(); /* the process's signals go to the threads left */
	if (p && p->task == current &&
	    (wait_event_killable(p->threads_gone, threads_gone(p)) || READ_ONCE(p->group_exiting)))
		program_kill_exit(); /* the last thread's exit_group may have ended the wait */
	program_exit(wstatus);
}

__noreturn void program_group_exit(int wstatus)
{
	struct program *p = current->program;

	p->group_wstatus = wstatus;
	WRITE_ONCE(p->group_exiting, true);
	smp_mb(); /* against a thread being cloned: do_clone_thread() */
	program_kill_threads();
	program_exit(wstatus);
}

static int program_kill_status(void)
{
	struct program *p = current->program;

	if (p && READ_ONCE(p->group_exiting))
		return p->group_wstatus;
	return READ_ONCE(current->kill_signal) ?: SIGINT;
}

/* A kill's default action ends the whole process, whichever thread it was sent to (glibc's
 * abort() sends SIGABRT to its own thread); a thread killed by its process's end just goes. */
__noreturn void program_kill_exit(void)
{
	struct program *p = current->program;

	if (p && !READ_ONCE(p->group_exiting))
		program_group_exit(program_kill_status());
	program_exit(program_kill_status());
}

int program_tgid(void)
{
	return current->program ? current->program->tgid : current->pid;
}

bool program_is_leader(void)
{
	return current->program && current->program->task == current;
}

/* The end of a thread's use of its process (program_run(), not the first thread's). */
void program_thread_exit(void)
{
	struct program *p = current->program;

	current->program = NULL;
	if (!__atomic_sub_fetch(&p->nr_threads, 1, __ATOMIC_RELEASE))
		wake_up(&p->threads_gone);
	program_put(p);
}

/* The first thread's kill was exit_group's, not the shell's: the status is the group's. */
void program_leader_group_exit(void)
{
	struct program *p = current->program;

	if (p && READ_ONCE(p->group_exiting) && p->task == current) {
		WRITE_ONCE(current->sigkill, false);
		WRITE_ONCE(current->kill_signal, 0);
	}
}

static long sys_set_tid_address(u64 tidptr, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	current->uthread->clear_child_tid = tidptr;
	return current->pid;
}

/* ---------------------------------------------------------------- wait4 */

/*
 * The child wait4 asks for: by pid (process groups: every child is in ours), and by its
 * exit signal as Linux's eligible_child(): without __WALL, a SIGCHLD child unless
 * __WCLONE, a "clone" child (another signal, or none) only with it.
 */
static bool matches(const struct program *c, long pid, unsigned int options)
{
	if (pid > 0 && c->task->pid != pid)
		return false;
	return (options & __WALL) || ((c->exit_signal != SIGCHLD) == !!(options & __WCLONE));
}

/* An ended child to reap (taken off the list), NULL if none, ERR_PTR(-ECHILD) if none can. */
static struct program *take_ended(struct program *p, long pid, unsigned int options)
{
	struct program *c, *found = NULL;
	bool any = false;

	spin_lock(&program_lock);
	list_for_each_entry(c, &p->children, sibling) {
		if (!matches(c, pid, options))
			continue;
		any = true;
		if (READ_ONCE(c->exited)) {
			found = c;
			list_del_init(&c->sibling);
			break;
		}
	}
	spin_unlock(&program_lock);
	return found ? found : any ? NULL : ERR_PTR(-ECHILD);
}

/* Is there an ended child to reap, or none left that could end (reaped as it ended)? */
static bool wait_done(struct program *p, long pid, unsigned int options)
{
	struct program *c;
	bool ended = false, any = false;

	spin_lock(&program_lock);
	list_for_each_entry(c, &p->children, sibling) {
		any |= matches(c, pid, options);
		ended |= matches(c, pid, options) && READ_ONCE(c->exited);
	}
	spin_unlock(&program_lock);
	return ended || !any;
}

static long sys_wait4(u64 upid, u64 ustatus, u64 options, u64 rusage, u64 a4, u64 a5)
{
	struct program *p = current->program, *c;
	long pid = (long)(int)upid;
	int wstatus;

	if (options & ~(u64)WAIT4_OPTIONS)
		return -EINVAL;
	for (;;) {
		c = take_ended(p, pid, (unsigned int)options);
		if (IS_ERR(c))
			return PTR_ERR(c);
		if (c)
			break;
		if (options & WNOHANG)
			return 0;
		if (wait_event_interruptible(p->child_exit, wait_done(p, pid, (unsigned int)options)))
			return -EINTR;
	}
	pid = c->task->pid;
	wstatus = c->wstatus;
	reap(c);
	if (ustatus && copy_to_user(ustatus, &wstatus, sizeof(wstatus)))
		return -EFAULT;
	if (rusage) {
		u8 zero[144] = { 0 }; /* struct rusage: nothing counted */

		if (copy_to_user(rusage, zero, sizeof(zero)))
			return -EFAULT;
	}
	return pid;
}

/* ---------------------------------------------------------------- ids and signals */

static long sys_getppid(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return program_ppid();
}

static long sys_own_pid(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return current->pid; /* getpgrp, getpgid, getsid, setsid: each program its own group */
}

static long sys_setpgid(u64 pid, u64 pgid, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return 0;
}

static long sys_pipe2(u64 ufds, u64 flags, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *rd, *wr;
	int fds[2];
	long err = create_pipe_files(&rd, &wr);

	if (err)
		return err;
	fds[0] = fd_install(rd, 0);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(wr, 0);
	if (fds[1] < 0 || copy_to_user(ufds, fds, sizeof(fds))) {
		fd_remove(fds[0]); /* not put: rd and wr are, once */
		fd_remove(fds[1]);
		fput(rd);
		fput(wr);
		return fds[1] < 0 ? -EMFILE : -EFAULT;
	}
	return 0;
}

static long sys_pipe(u64 ufds, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return sys_pipe2(ufds, 0, 0, 0, 0, 0);
}

static const struct syscall_def calls[] = {
	{ 22, "pipe", sys_pipe },        { 56, "clone", sys_clone },
	{ 57, "fork", sys_fork },        { 58, "vfork", sys_vfork },
	{ 61, "wait4", sys_wait4 },      { 109, "setpgid", sys_setpgid },
	{ 110, "getppid", sys_getppid }, { 111, "getpgrp", sys_own_pid },
	{ 112, "setsid", sys_own_pid },  { 121, "getpgid", sys_own_pid },
	{ 124, "getsid", sys_own_pid },  { 218, "set_tid_address", sys_set_tid_address },
	{ 293, "pipe2", sys_pipe2 },
};

const struct syscall_table sys_process_calls = { calls, ARRAY_SIZE(calls) };
