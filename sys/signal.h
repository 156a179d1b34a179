/*
 * Signals of programs (signal.c): a process's dispositions, a thread's mask and pending
 * signals, sending and delivering them; the system calls are sys_signal.c's.
 */
#ifndef CGWB_SYS_SIGNAL_H
#define CGWB_SYS_SIGNAL_H

#include <cgwb/types.h>
#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/user.h>
#include <cgwb/timer.h>

#define SIGSTOP 19
#define SIGTERM 15
#define SIGALRM 14
#define SIGSYS 31
#define sigmask(sig) (1ULL << ((sig)-1))
#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define SA_NOCLDWAIT 0x00000002u

/* si_code */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_QUEUE (-1)
#define SIGRTMIN 32
#define SIGQUEUE_MAX 1024 /* further instances a sigpending holds (RLIMIT_SIGPENDING's part) */
#define CLD_EXITED 1
#define CLD_KILLED 2

/* A real-time signal's instance beyond the first (info[]): oldest first. */
struct sigqueue {
	struct sigqueue *next;
	struct kernel_siginfo info;
};

struct sigpending {
	u64 signal;
	struct kernel_siginfo info[_NSIG]; /* each pending signal's first instance */
	struct sigqueue *queue;            /* real-time signals' further ones */
	unsigned int nr_queued;
};

/* With siglock: the pending instances of the signals in mask go. */
void sigpending_flush(struct sigpending *p, u64 mask);

/* A process's: shared by its threads (CLONE_SIGHAND), copied by fork. */
struct sighand_struct {
	int refs; /* its threads (siglock) */
	struct k_sigaction action[_NSIG];
	struct sigpending shared;     /* sent to the process */
	struct list_head threads;     /* task_signal.node */
	struct timer_list real_timer; /* ITIMER_REAL (itimer.c; set up at its first use) */
	unsigned long it_real_incr;   /* its interval in jiffies; 0: once */
};

/* A thread's (task->signal). */
struct task_signal {
	struct task_struct *task;
	struct sighand_struct *sighand;
	struct list_head node;
	int tgid; /* its process's id */
	u64 blocked;
	u64 real_blocked;     /* the mask before a sigtimedwait unblocked what it waits for */
	u64 saved_sigmask;    /* rt_sigsuspend's caller's mask, back after its handler */
	bool restore_sigmask; /* saved_sigmask is to come back */
	bool exiting;         /* takes no more signals: its process's go to the others */
	struct sigpending pending;
	struct user_stack altstack;
};

/* Every thread's mask and pending signals, every sighand, task->signal (irqsave). */
extern spinlock_t siglock;
/* With siglock, for current's ts: sigkill set if a kill or an unblocked signal is pending. */
void recalc_sigpending(struct task_signal *ts);

/* SIGCHLD, SIGCONT, SIGURG, SIGWINCH: their default is to go unnoticed. */
bool sig_default_ignored(int sig);
/*
 * sig with info to t's thread (group false) or its process: -ESRCH if t is no program's
 * thread (any more), -EAGAIN if a real-time instance with a code of its own (sigqueue)
 * finds the queue full, else 0. SIGKILL is a kill whatever the program says.
 */
int send_signal(int sig, const struct kernel_siginfo *info, struct task_struct *t, bool group);
/* With siglock: sig to sh's process (a thread of it that does not block it), if any is left. */
void sighand_signal(struct sighand_struct *sh, int sig, const struct kernel_siginfo *info);
/*
 * Does t's process have its children reaped as they end, as POSIX says of SIGCHLD set to
 * SIG_IGN or SA_NOCLDWAIT (Linux's do_notify_parent())? *send: SIGCHLD is still sent
 * (SA_NOCLDWAIT's; SIG_IGN's is not). With program_lock or not; takes siglock.
 */
bool sigchld_autoreap(struct task_struct *t, bool *send);
/* t's process id if it is a program's thread, else 0. */
int signal_tgid(const struct task_struct *t);
/*
 * A fault's signal for current: true if its handler is to take it at the return to user
 * mode; false if it has none (or ignores or blocks it): the caller ends the process.
 */
bool force_sig_fault(const struct kernel_siginfo *info);
/*
 * Before current returns to user mode with a signal pending: makes regs enter the handlers
 * due (0), or says how current is to end: -1 by a kill (program_kill_exit()), else by that
 * signal (its default action, or SIGSEGV for a handler's frame that does not fit). syscall:
 * regs return from a system call, which an interrupting signal may have it make again.
 * Called with interrupts off, as on return; returns so unless current is to end.
 */
int do_signal(struct pt_regs *regs, bool syscall);

/*
 * A new thread's state: current's dispositions shared (thread) or copied (fork), or fresh
 * ones (current is no program yet); current's mask. NULL if out of memory. It goes with
 * signal_attach() once the thread's task is made, or signal_free() if none is.
 */
struct task_signal *signal_alloc(bool thread);
void signal_free(struct task_signal *ts);
void signal_attach(struct task_struct *t, struct task_signal *ts, int tgid);
/*
 * rt_sigtimedwait: the lowest of which's signals pending for current (its own first), taken
 * off with its information; if none, sleeps with them unblocked until one comes (its
 * number), another signal is to be taken (-EINTR) or *timeout_ns passes (-EAGAIN; NULL:
 * no timeout, 0: no sleep).
 */
long signal_timedwait(u64 which, struct kernel_siginfo *info, const u64 *timeout_ns);
/* current takes no more signals (a first thread waiting for the others to end). */
void exit_signals(void);
/* current's program thread has ended: its state goes, and its pending signals. */
void signal_exit(void);
/* execve: handlers back to SIG_DFL (SIG_IGN stays), no alternate stack. */
void flush_signal_handlers(void);
void signal_init(void);

#endif
