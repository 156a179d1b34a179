/*
 * Signals of programs (Linux's kernel/signal.c): who gets one, and what happens to it on the
 * way back to user mode. The frame a handler runs on is the architecture's
 * (<cgwb/user.h>: setup_rt_frame(), restore_rt_frame()); the system calls are sys_signal.c's.
 *
 * - A process's threads share its dispositions (sighand_struct, CLONE_SIGHAND) and a set of
 *   signals sent to the process; each thread has its mask and the signals sent to it (tkill,
 *   faults). fork copies the dispositions, execve resets the handled ones to SIG_DFL.
 * - Sending: a signal sent to a process goes to a thread that does not block it (the one it
 *   was sent to first), which is woken; if every thread blocks it, it waits for an unblock.
 *   An ignored one (SIG_IGN, or a default of ignoring: SIGCHLD, SIGCONT, SIGURG, SIGWINCH)
 *   is dropped unless blocked. One whose default is to end the process (every other; the
 *   stop signals too: no job control) is a kill: the thread ends the process with it at
 *   its next return to user mode, or -EINTR ends its sleep first.
 *   SIGKILL is always that kill. A standard signal already pending is not queued twice; a
 *   real-time one (SIGRTMIN and up) is, each instance with its siginfo, delivered in the
 *   order sent, up to SIGQUEUE_MAX further ones per process or thread: past that, kill's
 *   instance is lost (its signal stays pending) and sigqueue's fails with -EAGAIN, as
 *   Linux's at RLIMIT_SIGPENDING.
 * - Delivery: before every return to user mode with a signal pending (sigkill set, Linux's
 *   TIF_SIGPENDING), the thread takes the lowest unblocked one, faults first: its handler
 *   gets a frame, with its sa_mask and the signal (unless SA_NODEFER) blocked meanwhile.
 *   An end (a kill, a default, a frame that does not fit) is do_signal()'s caller's to
 *   carry out (traps.c), which knows the process.
 * - A system call a handled signal interrupted (-EINTR) is made again with SA_RESTART if it
 *   is one Linux restarts (ERESTARTSYS: reads, writes, wait4, futex waits); sleeps, polls
 *   and sigsuspend return -EINTR. If no handler ran, each of these is made again, a sleep
 *   with its whole time.
 *
 * One lock (siglock) covers every thread's mask and pending signals, every sighand and
 * task->signal: signals are sent seldom, and Ctrl-C sends from an interrupt.
 */
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/spinlock.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/irqflags.h>
#include "internal.h"
#include "signal.h"

#define SYNCHRONOUS_MASK                                                           \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
	 sigmask(SIGFPE) | sigmask(SIGSYS))
#define DEFAULT_IGNORED (sigmask(SIGCHLD) | sigmask(SIGCONT) | sigmask(SIGURG) | sigmask(SIGWINCH))

DEFINE_SPINLOCK(siglock);

bool sig_default_ignored(int sig)
{
	return DEFAULT_IGNORED & sigmask(sig);
}

static bool sig_ignored(const struct sighand_struct *sh, int sig)
{
	u64 h = sh->action[sig - 1].handler;

	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

static bool sig_fatal(const struct sighand_struct *sh, int sig)
{
	return sh->action[sig - 1].handler == SIG_DFL && !sig_default_ignored(sig);
}

/*
 * With siglock, for current. A kill's sigkill stays; a sender's store after this one's
 * clearing, or before its look at kill_signal, sets it again.
 */
void recalc_sigpending(struct task_signal *ts)
{
	struct task_struct *t = ts->task;
	u64 unblocked = ~ts->blocked;

	__atomic_store_n(&t->sigkill, false, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->kill_signal, __ATOMIC_SEQ_CST) ||
	    (ts->pending.signal & unblocked) || (ts->sighand->shared.signal & unblocked))
		__atomic_store_n(&t->sigkill, true, __ATOMIC_SEQ_CST);
}

static bool wants_signal(int sig, const struct task_signal *ts)
{
	return !ts->exiting && !(ts->blocked & sigmask(sig));
}

/* The thread to take sig: ts if it can, else (sent to the process) any that can. */
static struct task_signal *pick_thread(int sig, struct task_signal *ts, bool group)
{
	struct task_signal *w;

	if (wants_signal(sig, ts))
		return ts;
	if (!group)
		return NULL;
	list_for_each_entry(w, &ts->sighand->threads, node)
		if (wants_signal(sig, w))
			return w;
	return NULL;
}

static void complete_signal(int sig, struct task_signal *ts, bool group)
{
	struct task_signal *w = pick_thread(sig, ts, group);

	if (!w)
		return; /* blocked wherever it may go: pending until an unblock */
	/* one a sigtimedwait unblocked for itself is not the default's kill */
	if (sig_fatal(ts->sighand, sig) && !(w->real_blocked & sigmask(sig)))
		task_kill(sig, w->task);
	else
		signal_wake_up(w->task);
}

/* With siglock: a further instance of a real-time signal, after the others. */
static int sigqueue_add(struct sigpending *p, const struct kernel_siginfo *info)
{
	struct sigqueue *q, **tail = &p->queue;

	q = p->nr_queued < SIGQUEUE_MAX ? kmalloc(sizeof(*q), GFP_ATOMIC) : NULL;
	if (!q)
		return -EAGAIN;
	q->next = NULL;
	q->info = *info;
	while (*tail)
		tail = &(*tail)->next;
	*tail = q;
	p->nr_queued++;
	return 0;
}

/* With siglock: sig's next instance into info[] (false: none queued). */
static bool sigqueue_take(struct sigpending *p, int sig)
{
	for (struct sigqueue **link = &p->queue; *link; link = &(*link)->next) {
		struct sigqueue *q = *link;

		if (q->info.signo == sig) {
			p->info[sig - 1] = q->info;
			*link = q->next;
			p->nr_queued--;
			kfree(q);
			return true;
		}
	}
	return false;
}

void sigpending_flush(struct sigpending *p, u64 mask)
{
	struct sigqueue **link = &p->queue;

	p->signal &= ~mask;
	while (*link) {
		struct sigqueue *q = *link;

		if (mask & sigmask(q->info.signo)) {
			*link = q->next;
			p->nr_queued--;
			kfree(q);
		} else {
			link = &q->next;
		}
	}
}

static int __send_signal(int sig, const struct kernel_siginfo *info, struct task_signal *ts,
			 bool group)
{
	struct sigpending *p = group ? &ts->sighand->shared : &ts->pending;

	/* a blocked signal is kept: the handler may have changed by its unblock */
	if (!((ts->blocked | ts->real_blocked) & sigmask(sig)) && sig_ignored(ts->sighand, sig))
		return 0;
	if (!(p->signal & sigmask(sig))) {
		p->signal |= sigmask(sig);
		p->info[sig - 1] = *info;
	} else if (sig >= SIGRTMIN && sigqueue_add(p, info) && info->code != SI_USER) {
		return -EAGAIN; /* kill's instance is lost silently, as Linux's */
	}
	complete_signal(sig, ts, group);
	return 0;
}

int send_signal(int sig, const struct kernel_siginfo *info, struct task_struct *t, bool group)
{
	unsigned long flags;
	struct task_signal *ts;
	int err = 0;

	spin_lock_irqsave(&siglock, flags);
	ts = t->signal;
	if (ts && sig == SIGKILL)
		task_kill(SIGKILL, t);
	else if (ts)
		err = __send_signal(sig, info, ts, group);
	spin_unlock_irqrestore(&siglock, flags);
	return ts ? err : -ESRCH;
}

void sighand_signal(struct sighand_struct *sh, int sig, const struct kernel_siginfo *info)
{
	if (!list_empty(&sh->threads))
		__send_signal(sig, info, list_first_entry(&sh->threads, struct task_signal, node),
			      true);
}

/* send_sig() to a program's thread: from the kernel (Ctrl-C, the shell's kill, a parent's
 * end), to its process. */
static bool send_sig_program(int sig, struct task_struct *t)
{
	struct kernel_siginfo info = { .signo = sig, .code = SI_KERNEL, .trapno = -1 };

	return sig >= 1 && sig <= _NSIG && send_signal(sig, &info, t, true) != -ESRCH;
}

bool sigchld_autoreap(struct task_struct *t, bool *send)
{
	unsigned long flags;
	struct task_signal *ts;
	bool reap = false;

	spin_lock_irqsave(&siglock, flags);
	ts = t->signal;
	if (ts) {
		const struct k_sigaction *ka = &ts->sighand->action[SIGCHLD - 1];

		reap = ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT);
		*send = ka->handler != SIG_IGN;
	}
	spin_unlock_irqrestore(&siglock, flags);
	return reap;
}

int signal_tgid(const struct task_struct *t)
{
	struct task_signal *ts = READ_ONCE(t->signal);

	return ts ? ts->tgid : 0;
}

bool force_sig_fault(const struct kernel_siginfo *info)
{
	struct task_signal *ts = current->signal;
	int sig = info->signo;
	struct k_sigaction *ka;
	unsigned long flags;
	bool handled;

	if (!ts)
		return false;
	spin_lock_irqsave(&siglock, flags);
	ka = &ts->sighand->action[sig - 1];
	/* a fault cannot be ignored or blocked: either is the default, which ends the process */
	if (ka->handler == SIG_IGN || (ts->blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		ts->blocked &= ~sigmask(sig);
	}
	handled = ka->handler != SIG_DFL;
	if (handled) {
		ts->pending.signal |= sigmask(sig);
		ts->pending.info[sig - 1] = *info;
		recalc_sigpending(ts);
	}
	spin_unlock_irqrestore(&siglock, flags);
	return handled;
}

/* ---------------------------------------------------------------- delivery */

static int next_signal(u64 pending, u64 blocked)
{
	u64 m = pending & ~blocked;

	if (m & SYNCHRONOUS_MASK)
		m &= SYNCHRONOUS_MASK;
	return m ? __builtin_ctzll(m) + 1 : 0;
}

/* The lowest pending signal not in blocked, the thread's own first, taken off with its info. */
static int dequeue_signal(struct task_signal *ts, u64 blocked, struct kernel_siginfo *info)
{
	struct sigpending *p = &ts->pending;
	int sig = next_signal(p->signal, blocked);

	if (!sig) {
		p = &ts->sighand->shared;
		sig = next_signal(p->signal, blocked);
	}
	if (sig) {
		*info = p->info[sig - 1];
		if (!sigqueue_take(p, sig))
			p->signal &= ~sigmask(sig);
	}
	return sig;
}

/*
 * The next signal a handler takes (ksig filled, 0), past the ignored ones; or how current
 * is to end (do_signal()'s return): a kill, or a signal whose default ends the process.
 */
static int get_signal(struct task_signal *ts, struct ksignal *ksig)
{
	unsigned long flags;

	for (;;) {
		struct k_sigaction *ka;
		bool handled, fatal;
		int sig;

		if (READ_ONCE(current->kill_signal))
			return -1;
		spin_lock_irqsave(&siglock, flags);
		sig = dequeue_signal(ts, ts->blocked, &ksig->info);
		recalc_sigpending(ts);
		ka = sig ? &ts->sighand->action[sig - 1] : NULL;
		handled = ka && ka->handler != SIG_DFL && ka->handler != SIG_IGN;
		fatal = ka && sig_fatal(ts->sighand, sig);
		if (handled) {
			ksig->sig = sig;
			ksig->ka = *ka;
			ksig->altstack = ts->altstack;
			if (ka->flags & SA_RESETHAND)
				ka->handler = SIG_DFL;
		}
		spin_unlock_irqrestore(&siglock, flags);
		if (!sig || handled)
			return 0;
		if (fatal)
			return sig;
	}
}

/* How Linux's call ends when a signal interrupts it (its ERESTART* code). */
enum restart_kind { RESTART_NONE, RESTART_SYS, RESTART_NOHAND };

static enum restart_kind restart_kind(long nr)
{
	switch (nr) {
	case 0:   /* read */
	case 1:   /* write */
	case 17:  /* pread64 */
	case 18:  /* pwrite64 */
	case 19:  /* readv */
	case 20:  /* writev */
	case 61:  /* wait4 */
	case 202: /* futex */
	case 247: /* waitid */
	case 295: /* preadv */
	case 296: /* pwritev */
		return RESTART_SYS;
	case 7:   /* poll (ERESTART_RESTARTBLOCK) */
	case 23:  /* select */
	case 34:  /* pause */
	case 35:  /* nanosleep (ERESTART_RESTARTBLOCK) */
	case 130: /* rt_sigsuspend */
	case 230: /* clock_nanosleep (ERESTART_RESTARTBLOCK) */
	case 270: /* pselect6 */
	case 271: /* ppoll */
		return RESTART_NOHAND;
	default:
		return RESTART_NONE;
	}
}

static bool interrupted(const struct pt_regs *regs)
{
	return (long)regs->rax == -EINTR && restart_kind(syscall_nr(regs)) != RESTART_NONE;
}

static void restore_saved_sigmask(struct task_signal *ts)
{
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	if (ts->restore_sigmask) {
		ts->restore_sigmask = false;
		ts->blocked = ts->saved_sigmask;
		recalc_sigpending(ts);
	}
	spin_unlock_irqrestore(&siglock, flags);
}

/* The handler's frame on the stack, its mask in force: 0, or SIGSEGV if no frame fits. */
static int handle_signal(struct task_signal *ts, struct ksignal *ksig, struct pt_regs *regs,
			 bool syscall)
{
	unsigned long flags;
	u64 oldmask;

	if (syscall && interrupted(regs) && restart_kind(syscall_nr(regs)) == RESTART_SYS &&
	    (ksig->ka.flags & SA_RESTART))
		syscall_restart(regs);
	oldmask = ts->restore_sigmask ? ts->saved_sigmask : ts->blocked;
	if (setup_rt_frame(ksig, oldmask, regs)) {
		pr_info("%s[%d]: bad frame for signal %d: ip %llx sp %llx\n", current->comm,
			current->pid, ksig->sig, regs->rip, regs->rsp);
		return SIGSEGV;
	}
	spin_lock_irqsave(&siglock, flags);
	ts->restore_sigmask = false;
	ts->blocked = oldmask | ksig->ka.mask;
	if (!(ksig->ka.flags & SA_NODEFER))
		ts->blocked |= sigmask(ksig->sig);
	ts->blocked &= ~UNBLOCKABLE;
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
	return 0;
}

int do_signal(struct pt_regs *regs, bool syscall)
{
	struct task_signal *ts = current->signal;
	struct ksignal ksig;
	int end = 0;

	syscall = syscall && syscall_nr(regs) >= 0;
	while (!end && signal_pending(current)) {
		local_irq_enable();
		if (!ts)
			return -1;
		memset(&ksig, 0, sizeof(ksig));
		end = get_signal(ts, &ksig);
		if (!end && ksig.sig) {
			end = handle_signal(ts, &ksig, regs, syscall);
		} else if (!end) {
			if (syscall && interrupted(regs))
				syscall_restart(regs);
			restore_saved_sigmask(ts);
		}
		syscall = false;
		local_irq_disable();
	}
	return end;
}

/* ---------------------------------------------------------------- sigtimedwait */

/* Until a signal is to be taken (true) or the deadline (ktime ns; 0: none) passes (false). */
static bool sleep_for_signal(u64 deadline)
{
	while (!signal_pending(current)) {
		u64 now = ktime_get_ns();
		long timeout = MAX_SCHEDULE_TIMEOUT;

		if (deadline && now >= deadline)
			return false;
		if (deadline)
			timeout = (long)nsecs_to_jiffies(deadline - now) + 1; /* at least the time */
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(current))
			schedule_timeout(timeout);
		__set_current_state(TASK_RUNNING);
	}
	return true;
}

/* As Linux's do_sigtimedwait(): what it waits for is unblocked while it sleeps. */
long signal_timedwait(u64 which, struct kernel_siginfo *info, const u64 *timeout_ns)
{
	struct task_signal *ts = current->signal;
	u64 now = ktime_get_ns(), deadline = 0;
	bool woken = false;
	unsigned long flags;
	int sig;

	if (timeout_ns && *timeout_ns && now + *timeout_ns > now)
		deadline = now + *timeout_ns; /* one past the clock's range: none */
	spin_lock_irqsave(&siglock, flags);
	sig = dequeue_signal(ts, ~which, info);
	if (!sig && (!timeout_ns || *timeout_ns)) {
		ts->real_blocked = ts->blocked;
		ts->blocked &= ~which;
		recalc_sigpending(ts);
		spin_unlock_irqrestore(&siglock, flags);
		woken = sleep_for_signal(deadline);
		spin_lock_irqsave(&siglock, flags);
		ts->blocked = ts->real_blocked;
		ts->real_blocked = 0;
		sig = dequeue_signal(ts, ~which, info);
	}
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
	if (sig)
		return sig;
	return woken ? -EINTR : -EAGAIN;
}

/* ---------------------------------------------------------------- threads */

struct task_signal *signal_alloc(bool thread)
{
	struct task_signal *ts = kzalloc(sizeof(*ts), GFP_KERNEL), *cur = current->signal;
	struct sighand_struct *sh = thread && cur ? NULL : kzalloc(sizeof(*sh), GFP_KERNEL);
	unsigned long flags;

	if (!ts || (!sh && !(thread && cur))) {
		kfree(ts);
		kfree(sh);
		return NULL;
	}
	INIT_LIST_HEAD(&ts->node);
	if (sh) {
		INIT_LIST_HEAD(&sh->threads);
		sh->refs = 1;
	}
	spin_lock_irqsave(&siglock, flags);
	if (sh && cur)
		memcpy(sh->action, cur->sighand->action, sizeof(sh->action));
	if (!sh) {
		sh = cur->sighand;
		sh->refs++;
	}
	ts->sighand = sh;
	if (cur) {
		ts->blocked = cur->blocked;
		if (!thread)
			ts->altstack = cur->altstack; /* a thread's stack is not its creator's */
	}
	spin_unlock_irqrestore(&siglock, flags);
	return ts;
}

static bool sighand_put(struct sighand_struct *sh)
{
	return !--sh->refs;
}

void signal_free(struct task_signal *ts)
{
	unsigned long flags;
	bool last;

	if (!ts)
		return;
	spin_lock_irqsave(&siglock, flags);
	last = sighand_put(ts->sighand);
	sigpending_flush(&ts->pending, ~0ULL);
	if (last)
		sigpending_flush(&ts->sighand->shared, ~0ULL);
	spin_unlock_irqrestore(&siglock, flags);
	if (last)
		kfree(ts->sighand);
	kfree(ts);
}

void signal_attach(struct task_struct *t, struct task_signal *ts, int tgid)
{
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	ts->task = t;
	ts->tgid = tgid;
	list_add_tail(&ts->node, &ts->sighand->threads);
	WRITE_ONCE(t->signal, ts);
	spin_unlock_irqrestore(&siglock, flags);
}

/* With siglock: what was sent to the process and current could have taken goes elsewhere. */
static void retarget_shared_pending(struct task_signal *ts)
{
	u64 pending = ts->sighand->shared.signal;

	for (int sig = 1; sig <= _NSIG; sig++)
		if (pending & sigmask(sig))
			complete_signal(sig, ts, true);
}

void exit_signals(void)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;

	if (!ts)
		return;
	spin_lock_irqsave(&siglock, flags);
	ts->exiting = true;
	ts->blocked = ~UNBLOCKABLE;
	retarget_shared_pending(ts);
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
}

void signal_exit(void)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;
	bool last;

	if (!ts)
		return;
	spin_lock_irqsave(&siglock, flags);
	ts->exiting = true;
	retarget_shared_pending(ts);
	WRITE_ONCE(current->signal, NULL);
	list_del(&ts->node);
	last = sighand_put(ts->sighand);
	/* a signal left for a handler goes with the thread: no kill for its task's status */
	ts->blocked = ~0ULL;
	sigpending_flush(&ts->pending, ~0ULL);
	if (last)
		sigpending_flush(&ts->sighand->shared, ~0ULL);
	recalc_sigpending(ts);
	spin_unlock_irqrestore(&siglock, flags);
	if (last) {
		/* no thread left: a running expiry sends nothing and does not re-arm */
		if (ts->sighand->real_timer.function)
			del_timer_sync(&ts->sighand->real_timer);
		kfree(ts->sighand);
	}
	kfree(ts);
}

void flush_signal_handlers(void)
{
	struct task_signal *ts = current->signal;
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &ts->sighand->action[i];

		*ka = (struct k_sigaction){ .handler = ka->handler == SIG_IGN ? SIG_IGN : SIG_DFL };
	}
	memset(&ts->altstack, 0, sizeof(ts->altstack));
	spin_unlock_irqrestore(&siglock, flags);
}

void signal_init(void)
{
	send_sig_register(send_sig_program);
}
