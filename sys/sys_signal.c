/*
 * The signal system calls (Linux's kernel/signal.c): dispositions, masks, pending signals,
 * waiting for one (and taking it: rt_sigtimedwait), the alternate stack, sending (kill, tkill, tgkill) and rt_sigreturn.
 * signal.c keeps the state they change. Every program is its own process group: kill(0)
 * and kill(-pgid) reach a process; kill(-1), every process, is refused (-EINVAL).
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "internal.h"
#include "signal.h"

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define MINSIGSTKSZ 2048

/* With siglock: sig's pending instances go (a disposition that ignores it, POSIX's rule). */
static void flush_pending(struct sighand_struct *sh, int sig)
{
	struct task_signal *ts;

	sigpending_flush(&sh->shared, sigmask(sig));
	list_for_each_entry(ts, &sh->threads, node)
		sigpending_flush(&ts->pending, sigmask(sig));
}

static long sys_rt_sigaction(u64 sig, u64 uact, u64 uoact, u64 size, u64 a4, u64 a5)
{
	struct task_signal *ts = current->signal;
	struct k_sigaction act, old;
	struct sighand_struct *sh;
	unsigned long flags;

	if (size != sizeof(u64) || sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (uact && (sigmask(sig) & UNBLOCKABLE))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	spin_lock_irqsave(&siglock, flags);
	sh = ts->sighand;
	old = sh->action[sig - 1];
	if (uact) {
		act.mask &= ~UNBLOCKABLE;
		sh->action[sig - 1] = act;
		if (act.handler == SIG_IGN ||
		    (act.handler == SIG_DFL && sig_default_ignored((int)sig)))
			flush_pending(sh, (int)sig);
	}
	spin_unlock_irqrestore(&siglock, flags);
	if (uoact && copy_to_user(uoact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* current's mask becomes mask (what an unblock lets through is delivered on the way out). */
static void set_current_blocked(u64 mask)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	ts->blocked = mask & ~UNBLOCKABLE;
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
}

static long sys_rt_sigprocmask(u64 how, u64 uset, u64 uoset, u64 size, u64 a4, u64 a5)
{
	u64 old = current->signal->blocked, set;

	if (size != sizeof(u64))
		return -EINVAL;
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			set_current_blocked(old | set);
			break;
		case SIG_UNBLOCK:
			set_current_blocked(old & ~set);
			break;
		case SIG_SETMASK:
			set_current_blocked(set);
			break;
		default:
			return -EINVAL;
		}
	}
	return uoset && copy_to_user(uoset, &old, sizeof(old)) ? -EFAULT : 0;
}

static long sys_rt_sigpending(u64 uset, u64 size, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;
	u64 set;

	if (size > sizeof(u64))
		return -EINVAL;
	spin_lock_irqsave(&siglock, flags);
	set = (ts->pending.signal | ts->sighand->shared.signal) & ts->blocked;
	spin_unlock_irqrestore(&siglock, flags);
	return copy_to_user(uset, &set, size) ? -EFAULT : 0;
}

/* Until a signal is to be taken (or a kill): -EINTR, which a handler leaves as it is. */
static long wait_for_signal(void)
{
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(current))
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return -EINTR;
}

static long sys_pause(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return wait_for_signal();
}

/* The handler's frame saves the caller's mask, so its rt_sigreturn puts that back. */
static long sys_rt_sigsuspend(u64 umask, u64 size, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;
	u64 mask;

	if (size != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	spin_lock_irqsave(&siglock, flags);
	ts->saved_sigmask = ts->blocked;
	ts->restore_sigmask = true;
	ts->blocked = mask & ~UNBLOCKABLE;
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
	return wait_for_signal();
}

/* Linux's rt_sigtimedwait: the signal's number, its siginfo_t at uinfo if given. */
static long sys_rt_sigtimedwait(u64 uthese, u64 uinfo, u64 uts, u64 size, u64 a4, u64 a5)
{
	struct kernel_siginfo info;
	u64 these, ns = 0;
	long ret;

	if (size != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		ret = get_timespec_ns(uts, &ns); /* -EFAULT, or -EINVAL for a bad one */
		if (ret)
			return ret;
	}
	ret = signal_timedwait(these & ~UNBLOCKABLE, &info, uts ? &ns : NULL);
	if (ret > 0 && uinfo && copy_siginfo_to_user(uinfo, &info))
		ret = -EFAULT;
	return ret;
}

static int do_sigaltstack(const struct user_stack *ss, struct user_stack *oss, u64 sp)
{
	struct task_signal *ts = current->signal;

	if (oss) {
		*oss = ts->altstack;
		oss->ss_flags = sas_ss_flags(&ts->altstack, sp);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(&ts->altstack, sp))
		return -EPERM;
	if (ss->ss_flags != 0 && ss->ss_flags != SS_DISABLE && ss->ss_flags != SS_ONSTACK)
		return -EINVAL;
	if (ss->ss_flags == SS_DISABLE) {
		memset(&ts->altstack, 0, sizeof(ts->altstack));
		return 0;
	}
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	ts->altstack = (struct user_stack){ .ss_sp = ss->ss_sp, .ss_size = ss->ss_size };
	return 0;
}

static long sys_sigaltstack(u64 uss, u64 uoss, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct user_stack ss, oss;
	int err;

	if (uss && copy_from_user(&ss, uss, sizeof(ss)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &ss : NULL, &oss, current_user_regs()->rsp);
	if (!err && uoss && copy_to_user(uoss, &oss, sizeof(oss)))
		return -EFAULT;
	return err;
}

static long sys_rt_sigreturn(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct pt_regs *regs = current_user_regs();
	struct user_stack ss;
	u64 blocked;

	if (restore_rt_frame(regs, &blocked, &ss)) {
		pr_info("%s[%d]: bad frame in rt_sigreturn: ip %llx sp %llx\n", current->comm,
			current->pid, regs->rip, regs->rsp);
		program_group_exit(SIGSEGV);
	}
	set_current_blocked(blocked);
	do_sigaltstack(&ss, NULL, regs->rsp); /* as Linux's: a refusal is no error here */
	syscall_forget(regs);
	return (long)regs->rax; /* the interrupted code's RAX, not a result */
}

/* ---------------------------------------------------------------- sending */

struct kill_req {
	int pid;
	int tgid; /* tgkill: the thread's process must be this one */
	int sig;
	bool group;
	const struct kernel_siginfo *info;
	int err;
};

/* Under the task list's lock: the task cannot go meanwhile. */
static void kill_one(struct task_struct *t, void *arg)
{
	struct kill_req *r = arg;

	if (t->pid != r->pid || r->err != -ESRCH)
		return;
	if (t->flags & (PF_KTHREAD | PF_IDLE)) {
		r->err = -EPERM; /* kernel threads serve everybody */
		return;
	}
	if (r->tgid && signal_tgid(t) != r->tgid)
		return;
	r->err = 0;
	/* a shell command's task (no program): the kill it always was */
	r->err = r->sig ? send_signal(r->sig, r->info, t, r->group) : 0;
	if (r->err == -ESRCH) {
		r->err = 0;
		if (!sig_default_ignored(r->sig))
			task_kill(r->sig, t);
	}
}

static long kill_task_info(int pid, int tgid, u64 sig, const struct kernel_siginfo *info, bool group)
{
	struct kill_req r = { pid, tgid, (int)sig, group, info, -ESRCH };

	if (sig > _NSIG)
		return -EINVAL;
	for_each_task(kill_one, &r)
		;
	return r.err;
}

static long kill_task(int pid, int tgid, u64 sig, int code, bool group)
{
	struct kernel_siginfo info = {
		.signo = (int)sig, .code = code, .pid = program_tgid(), .trapno = -1
	};

	return kill_task_info(pid, tgid, sig, &info, group);
}

/*
 * rt_sigqueueinfo and rt_tgsigqueueinfo (Linux's do_rt_sigqueueinfo()): the program's own
 * siginfo, but a code that poses as the kernel's or kill's only to itself.
 */
static long sigqueueinfo(int pid, int tgid, u64 sig, u64 uinfo, bool group)
{
	struct kernel_siginfo info;
	int err = copy_siginfo_from_user(&info, uinfo);

	if (err)
		return err;
	if ((info.code >= 0 || info.code == SI_TKILL) &&
	    pid != (group ? program_tgid() : current->pid))
		return -EPERM;
	info.signo = (int)sig;
	return kill_task_info(pid, tgid, sig, &info, group);
}

static long sys_rt_sigqueueinfo(u64 pid, u64 sig, u64 uinfo, u64 a3, u64 a4, u64 a5)
{
	return sigqueueinfo((int)pid, 0, sig, uinfo, true);
}

static long sys_rt_tgsigqueueinfo(u64 tgid, u64 tid, u64 sig, u64 uinfo, u64 a4, u64 a5)
{
	if ((int)tgid <= 0 || (int)tid <= 0)
		return -EINVAL;
	return sigqueueinfo((int)tid, (int)tgid, sig, uinfo, false);
}

static long sys_kill(u64 upid, u64 sig, u64 a2, u64 a3, u64 a4, u64 a5)
{
	int pid = (int)upid;

	if (pid == -1)
		return -EINVAL; /* every process: not for a program to do here */
	if (pid < -0x7fffffff)
		return -ESRCH;
	if (pid == 0)
		pid = program_tgid();
	return kill_task(pid < 0 ? -pid : pid, 0, sig, SI_USER, true);
}

static long sys_tkill(u64 tid, u64 sig, u64 a2, u64 a3, u64 a4, u64 a5)
{
	if ((int)tid <= 0)
		return -EINVAL;
	return kill_task((int)tid, 0, sig, SI_TKILL, false);
}

static long sys_tgkill(u64 tgid, u64 tid, u64 sig, u64 a3, u64 a4, u64 a5)
{
	if ((int)tgid <= 0 || (int)tid <= 0)
		return -EINVAL;
	return kill_task((int)tid, (int)tgid, sig, SI_TKILL, false);
}

static const struct syscall_def calls[] = {
	{ 13, "rt_sigaction", sys_rt_sigaction },
	{ 14, "rt_sigprocmask", sys_rt_sigprocmask },
	{ 15, "rt_sigreturn", sys_rt_sigreturn },
	{ 34, "pause", sys_pause },
	{ 62, "kill", sys_kill },
	{ 127, "rt_sigpending", sys_rt_sigpending },
	{ 128, "rt_sigtimedwait", sys_rt_sigtimedwait },
	{ 129, "rt_sigqueueinfo", sys_rt_sigqueueinfo },
	{ 130, "rt_sigsuspend", sys_rt_sigsuspend },
	{ 131, "sigaltstack", sys_sigaltstack },
	{ 200, "tkill", sys_tkill },
	{ 234, "tgkill", sys_tgkill },
	{ 297, "rt_tgsigqueueinfo", sys_rt_tgsigqueueinfo },
};

const struct syscall_table sys_signal_calls = { calls, ARRAY_SIZE(calls) };
