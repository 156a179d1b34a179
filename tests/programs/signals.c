/*
 * Signal handlers as Linux runs them (tests/system/prog_signals.sh): each check prints
 * "PASS name" or "FAIL name: why".
 *
 *   signals              every check below, in order
 *   signals execcheck    (run by the exec check) the dispositions and mask execve leaves
 *   signals waitsig N [FILE]
 *                        handlers for SIGINT and SIGTERM print what they caught; after N
 *                        of them the program exits with status N. FILE is made once the
 *                        handlers are in place.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static int tgkill_(pid_t tgid, pid_t tid, int sig)
{
	return (int)syscall(SYS_tgkill, tgid, tid, sig);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		perror("sigaction");
}

/* ---------------------------------------------------------------- a handler's siginfo */

static volatile sig_atomic_t got_sig, got_code, got_pid, got_count, got_tid;

static void record(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_tid = gettid_();
	got_count++;
}

static void check_siginfo(void)
{
	install(SIGUSR1, record, 0);
	got_sig = got_count = 0;
	raise(SIGUSR1);
	report("raise", got_count == 1 && got_sig == SIGUSR1 && got_code == SI_TKILL,
	       "handler did not run with SIGUSR1, SI_TKILL");
	install(SIGUSR2, record, 0);
	got_count = 0;
	kill(getpid(), SIGUSR2);
	report("kill",
	       got_count == 1 && got_sig == SIGUSR2 && got_code == SI_USER && got_pid == getpid(),
	       "handler did not run with SIGUSR2, SI_USER, our pid");
	got_count = 0;
	tgkill_(getpid(), gettid_(), SIGUSR1);
	report("tgkill", got_count == 1 && got_code == SI_TKILL, "no SI_TKILL SIGUSR1");
}

/* ---------------------------------------------------------------- registers and FPU */

unsigned long reg_in[9] = { 0x1111111111111111, 0x2222222222222222, 0x3333333333333333,
			    0x4444444444444444, 0x5555555555555555, 0x6666666666666666,
			    0x7777777777777777, 0x8888888888888888, 0x9999999999999999 };
unsigned long reg_out[9];
double fp_in = 1.5, fp_out[2];
unsigned long stack_at_entry;

/* The handler's first instruction: where the kernel left RSP (8 past 16 as after a call). */
void clobber_handler(int, siginfo_t *, void *);
__asm__(".globl align_entry\n"
	"align_entry:\n\t"
	"mov %rsp, stack_at_entry(%rip)\n\t"
	"jmp clobber_handler\n");
extern char align_entry[];

void clobber_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	/* what the handler does to caller-saved registers and the FPU must not leak out */
	__asm__ volatile("mov $-1, %%r8\n\tmov $-1, %%r9\n\tmov $-1, %%r10\n\t"
			 "pcmpeqd %%xmm2, %%xmm2\n\tpcmpeqd %%xmm14, %%xmm14\n\t"
			 "movl $0x7f80, -4(%%rsp)\n\tldmxcsr -4(%%rsp)\n\t" /* round toward zero */
			 :
			 :
			 : "r8", "r9", "r10", "xmm2", "xmm14", "memory");
}

static void check_registers(void)
{
	long nr = SYS_tgkill, tgid = getpid(), tid = gettid_(), sig = SIGUSR1;
	unsigned int mxcsr_before, mxcsr_after;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = (void (*)(int, siginfo_t *, void *))(void *)align_entry;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr_before));
	/* the signal is delivered on the way out of this tgkill, between the two halves of a
	 * computation held in xmm14 */
	__asm__ volatile("mov reg_in+0(%%rip), %%rbx\n\t"
			 "mov reg_in+8(%%rip), %%rbp\n\t"
			 "mov reg_in+16(%%rip), %%r8\n\t"
			 "mov reg_in+24(%%rip), %%r9\n\t"
			 "mov reg_in+32(%%rip), %%r10\n\t"
			 "mov reg_in+40(%%rip), %%r12\n\t"
			 "mov reg_in+48(%%rip), %%r13\n\t"
			 "mov reg_in+56(%%rip), %%r14\n\t"
			 "mov reg_in+64(%%rip), %%r15\n\t"
			 "movsd fp_in(%%rip), %%xmm2\n\t"
			 "movsd fp_in(%%rip), %%xmm14\n\t"
			 "mulsd %%xmm2, %%xmm14\n\t"
			 "syscall\n\t"
			 "addsd %%xmm2, %%xmm14\n\t"
			 "mov %%rbx, reg_out+0(%%rip)\n\t"
			 "mov %%rbp, reg_out+8(%%rip)\n\t"
			 "mov %%r8, reg_out+16(%%rip)\n\t"
			 "mov %%r9, reg_out+24(%%rip)\n\t"
			 "mov %%r10, reg_out+32(%%rip)\n\t"
			 "mov %%r12, reg_out+40(%%rip)\n\t"
			 "mov %%r13, reg_out+48(%%rip)\n\t"
			 "mov %%r14, reg_out+56(%%rip)\n\t"
			 "mov %%r15, reg_out+64(%%rip)\n\t"
			 "movsd %%xmm14, fp_out(%%rip)\n\t"
			 "movsd %%xmm2, fp_out+8(%%rip)\n\t"
			 : "+a"(nr), "+D"(tgid), "+S"(tid), "+d"(sig)
			 :
			 : "rcx", "r11", "rbx", "rbp", "r8", "r9", "r10", "r12", "r13", "r14",
			   "r15", "xmm2", "xmm14", "memory", "cc");
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr_after));
	report("registers survive a handler",
	       nr == 0 && !memcmp(reg_in, reg_out, sizeof(reg_in)) && tgid == getpid() &&
		       tid == gettid_() && sig == SIGUSR1,
	       "a general register changed");
	report("FPU state survives a handler",
	       fp_out[0] == 1.5 * 1.5 + 1.5 && fp_out[1] == 1.5 && mxcsr_after == mxcsr_before,
	       "xmm2, xmm14 or MXCSR changed");
	report("handler stack alignment", stack_at_entry % 16 == 8, "RSP not 8 past 16");
}

/* ---------------------------------------------------------------- masks */

static void check_mask(void)
{
	sigset_t set, pending, old;

	install(SIGUSR1, record, 0);
	got_count = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigpending(&pending);
	report("blocked signal stays pending", got_count == 0 && sigismember(&pending, SIGUSR1),
	       "delivered while blocked, or not pending");
	sigprocmask(SIG_SETMASK, &old, NULL);
	report("unblock delivers", got_count == 1, "not delivered at the unblock");
	sigpending(&pending);
	report("nothing pending after", !sigismember(&pending, SIGUSR1), "still pending");

	sigemptyset(&set);
	sigaddset(&set, SIGKILL);
	sigaddset(&set, SIGSTOP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigprocmask(SIG_BLOCK, NULL, &old);
	report("SIGKILL and SIGSTOP cannot be blocked",
	       !sigismember(&old, SIGKILL) && !sigismember(&old, SIGSTOP), "they were");
}

static volatile sig_atomic_t depth, max_depth, calls;

static void nested(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	if (calls++ == 0) /* once: raised again after each run, it never stops */
		raise(sig);
	depth--;
}

static void check_nodefer(void)
{
	depth = max_depth = calls = 0;
	install(SIGUSR1, nested, 0);
	raise(SIGUSR1);
	report("signal blocked in its handler", max_depth == 1 && calls == 2, "the handler nested");
	depth = max_depth = calls = 0;
	install(SIGUSR1, nested, SA_NODEFER);
	raise(SIGUSR1);
	report("SA_NODEFER", max_depth == 2, "the handler did not nest");
}

static void check_resethand(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		install(SIGUSR1, record, SA_RESETHAND);
		got_count = 0;
		raise(SIGUSR1);
		if (got_count != 1)
			_exit(1);
		raise(SIGUSR1); /* SIG_DFL now: the end */
		_exit(2);
	}
	waitpid(pid, &status, 0);
	report("SA_RESETHAND", WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
	       "the second signal did not end the process");
}

/* ---------------------------------------------------------------- faults */

static sigjmp_buf fault_jmp;
static volatile void *fault_addr;
static volatile int fault_sig, fault_code;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	fault_sig = sig;
	fault_code = si->si_code;
	fault_addr = si->si_addr;
	siglongjmp(fault_jmp, 1);
}

extern char ud2_insn[];

static __attribute__((noinline)) void do_ud2(void)
{
	__asm__ volatile(".globl ud2_insn\nud2_insn: ud2");
}

extern char idiv_insn[];

static __attribute__((noinline)) void divide_by_zero(void)
{
	__asm__ volatile("xor %%ecx, %%ecx\n\tmov $1, %%eax\n\tcltd\n\t"
			 ".globl idiv_insn\nidiv_insn: idiv %%ecx"
			 :
			 :
			 : "eax", "ecx", "edx");
}

static void check_faults(void)
{
	volatile char *volatile bad = (volatile char *)0x1000;
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int ok = 1;

	install(SIGSEGV, on_fault, 0);
	install(SIGILL, on_fault, 0);
	install(SIGFPE, on_fault, 0);
	for (int i = 0; i < 2; i++) { /* twice: siglongjmp put the mask back */
		fault_addr = NULL;
		if (!sigsetjmp(fault_jmp, 1))
			*bad = 1;
		ok &= fault_sig == SIGSEGV && fault_addr == bad && fault_code == SEGV_MAPERR;
	}
	report("SIGSEGV handler and siglongjmp", ok, "wrong signal, si_addr or si_code");
	fault_addr = NULL;
	if (!sigsetjmp(fault_jmp, 1))
		*(volatile char *)ro = 1;
	report("SEGV_ACCERR", fault_sig == SIGSEGV && fault_addr == ro && fault_code == SEGV_ACCERR,
	       "wrong si_addr or si_code");
	if (!sigsetjmp(fault_jmp, 1))
		do_ud2();
	report("SIGILL", fault_sig == SIGILL && fault_addr == ud2_insn && fault_code == ILL_ILLOPN,
	       "wrong si_addr or si_code");
	if (!sigsetjmp(fault_jmp, 1))
		divide_by_zero();
	report("SIGFPE", fault_sig == SIGFPE && fault_addr == idiv_insn && fault_code == FPE_INTDIV,
	       "wrong si_addr or si_code");
	signal(SIGSEGV, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	munmap(ro, 4096);
}

/* A handler whose frame cannot be written (no stack): the process ends by SIGSEGV. */
static void check_bad_stack(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		install(SIGUSR1, record, 0);
		__asm__ volatile("mov $16, %%rsp\n\t" /* nothing mapped there */
				 "syscall\n\t"
				 "ud2"
				 :
				 : "a"(SYS_kill), "D"(getpid()), "S"(SIGUSR1));
		_exit(1);
	}
	waitpid(pid, &status, 0);
	report("a bad stack at delivery ends the process",
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "not SIGSEGV");
}

/* ---------------------------------------------------------------- alternate stack */

static char altstack[65536];
static volatile uintptr_t handler_local;

static void on_alt(int sig, siginfo_t *si, void *uc)
{
	char here;

	(void)sig;
	(void)si;
	(void)uc;
	handler_local = (uintptr_t)&here;
}

static void check_altstack(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, old;

	sigaltstack(&ss, NULL);
	install(SIGUSR2, on_alt, SA_ONSTACK);
	raise(SIGUSR2);
	sigaltstack(NULL, &old);
	report("sigaltstack",
	       handler_local > (uintptr_t)altstack &&
		       handler_local < (uintptr_t)altstack + sizeof(altstack) &&
		       old.ss_sp == altstack && old.ss_flags == 0,
	       "the handler did not run on the alternate stack");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* ---------------------------------------------------------------- interrupted calls */

struct poke {
	pid_t tid;
	int fd;
	int spin; /* 1: only signal, the target spins in user mode */
};

static void *poker(void *arg)
{
	struct poke *p = arg;

	usleep(100000);
	tgkill_(getpid(), p->tid, SIGUSR1);
	if (!p->spin) {
		usleep(100000);
		write(p->fd, "x", 1);
	}
	return NULL;
}

static void check_pipe_read(int flags, const char *name)
{
	struct poke p = { gettid_(), -1, 0 };
	int fds[2];
	pthread_t t;
	ssize_t n;
	char c;

	pipe(fds);
	p.fd = fds[1];
	install(SIGUSR1, record, flags);
	got_count = 0;
	pthread_create(&t, NULL, poker, &p);
	n = read(fds[0], &c, 1);
	if (flags & SA_RESTART)
		report(name, n == 1 && c == 'x' && got_count == 1, "the read was not restarted");
	else
		report(name, n == -1 && errno == EINTR && got_count == 1,
		       "the read did not fail EINTR");
	pthread_join(t, NULL);
	close(fds[0]);
	close(fds[1]);
}

static void check_spinning(void)
{
	struct poke p = { gettid_(), -1, 1 };
	pthread_t t;

	install(SIGUSR1, record, 0);
	got_count = 0;
	pthread_create(&t, NULL, poker, &p);
	/* no system call in between: the signal comes with an interrupt */
	for (unsigned long i = 0; !got_count && i < 4000000000UL; i++)
		__asm__ volatile("");
	pthread_join(t, NULL);
	report("signal to a thread spinning in user mode", got_count == 1, "never delivered");
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void check_alarm(void)
{
	struct itimerval it = { .it_value = { 0, 50000 } };
	struct timespec start, now;
	unsigned int left;

	signal(SIGALRM, on_alarm);
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		printf("SKIP setitimer: %s\n", strerror(errno));
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (!alarms && now.tv_sec - start.tv_sec < 10);
	report("SIGALRM from setitimer", alarms == 1, "no SIGALRM");
	alarms = 0;
	alarm(1);
	while (!alarms)
		pause();
	report("SIGALRM from alarm, pause", alarms == 1, "no SIGALRM");
	alarm(5);
	left = alarm(0);
	report("alarm(0) says what was left", left == 5, "not 5 seconds");
	signal(SIGALRM, SIG_DFL);
}

/* ---------------------------------------------------------------- threads */

static volatile int thread_stop;
static volatile pid_t sleeper_tid;

static void *sleeper(void *arg)
{
	(void)arg;
	sleeper_tid = gettid_();
	while (!thread_stop)
		usleep(1000);
	return NULL;
}

static void check_threads(void)
{
	pthread_t t;
	pid_t tid;
	sigset_t set;

	install(SIGUSR1, record, 0);
	got_tid = 0;
	thread_stop = 0;
	sleeper_tid = 0;
	pthread_create(&t, NULL, sleeper, NULL);
	while (!(tid = sleeper_tid))
		usleep(1000);
	tgkill_(getpid(), tid, SIGUSR1);
	for (int i = 0; i < 1000 && !got_tid; i++)
		usleep(1000);
	report("tgkill reaches its thread", got_tid == tid, "another thread took it");
	/* sent to the process while this thread blocks it: the other one takes it */
	got_tid = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	for (int i = 0; i < 1000 && !got_tid; i++)
		usleep(1000);
	report("kill goes to a thread not blocking it", got_tid == tid, "not the other thread");
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	thread_stop = 1;
	pthread_join(t, NULL);
}

/* ---------------------------------------------------------------- fork and exec */

static volatile sig_atomic_t chld_pid, chld_code, chld_status;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_pid = si->si_pid;
	chld_code = si->si_code;
	chld_status = si->si_status;
}

static void check_fork(void)
{
	int status;
	pid_t pid;

	install(SIGUSR1, record, 0);
	install(SIGCHLD, on_chld, SA_RESTART);
	pid = fork();
	if (pid == 0) {
		got_count = 0;
		raise(SIGUSR1);
		_exit(got_count == 1 ? 7 : 1);
	}
	waitpid(pid, &status, 0);
	for (int i = 0; i < 100 && !chld_pid; i++)
		usleep(1000);
	report("a forked child has the handlers", WIFEXITED(status) && WEXITSTATUS(status) == 7,
	       "the child's raise did not run the handler");
	report("SIGCHLD", chld_pid == pid && chld_code == CLD_EXITED && chld_status == 7,
	       "no SIGCHLD with the child's pid and status");
	signal(SIGCHLD, SIG_DFL);
}

static void check_exec(const char *self)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t set;

		install(SIGUSR1, record, 0);
		signal(SIGUSR2, SIG_IGN);
		sigemptyset(&set);
		sigaddset(&set, SIGHUP);
		sigprocmask(SIG_BLOCK, &set, NULL);
		execl(self, self, "execcheck", (char *)NULL);
		_exit(126);
	}
	waitpid(pid, &status, 0);
	report("execve resets handlers, keeps SIG_IGN and the mask",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0, "see execcheck's line");
}

static int exec_check(void)
{
	struct sigaction usr1, usr2;
	sigset_t set;

	sigaction(SIGUSR1, NULL, &usr1);
	sigaction(SIGUSR2, NULL, &usr2);
	sigprocmask(SIG_BLOCK, NULL, &set);
	if (usr1.sa_handler != SIG_DFL || usr2.sa_handler != SIG_IGN || !sigismember(&set, SIGHUP)) {
		printf("execcheck: SIGUSR1 %s, SIGUSR2 %s, SIGHUP %s\n",
		       usr1.sa_handler == SIG_DFL ? "default" : "kept",
		       usr2.sa_handler == SIG_IGN ? "ignored" : "not ignored",
		       sigismember(&set, SIGHUP) ? "blocked" : "unblocked");
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- hostile input */

static char forged_stack[16384] __attribute__((aligned(16)));
static unsigned char forged_fx[512] __attribute__((aligned(64)));

extern char forged_entry[];
void forged_check(void)
{
	unsigned short cs, ss;
	unsigned long flags;
	unsigned int mxcsr;

	__asm__ volatile("mov %%cs, %0\n\tmov %%ss, %1\n\tpushf\n\tpop %2\n\tstmxcsr %3"
			 : "=r"(cs), "=r"(ss), "=r"(flags), "=m"(mxcsr));
	/* user selectors, no IOPL or NT, MXCSR's reserved bits clear */
	_exit((cs & 3) == 3 && (ss & 3) == 3 && !(flags & 0x7000) && !(mxcsr & 0xffff0000) ? 0 : 3);
}
__asm__(".globl forged_entry\nforged_entry:\n\tand $-16, %rsp\n\tcall forged_check\n");

/* rt_sigreturn from the frame below sp (its return address popped). */
static void sigreturn_at(void *sp)
{
	__asm__ volatile("mov %0, %%rsp\n\tsyscall" : : "r"(sp), "a"(SYS_rt_sigreturn) : "memory");
}

static int forged_frame(int kind)
{
	static unsigned char frame[8 + sizeof(ucontext_t) + 128] __attribute__((aligned(16)));
	ucontext_t *uc = (ucontext_t *)(frame + 8);
	greg_t *g = uc->uc_mcontext.gregs;

	memset(frame, 0, sizeof(frame));
	if (kind == 0) { /* garbage */
		for (size_t i = 0; i < sizeof(frame); i++)
			frame[i] = (unsigned char)(i * 37 + 11);
	} else {
		g[REG_RIP] = (greg_t)(uintptr_t)forged_entry;
		g[REG_RSP] = (greg_t)(uintptr_t)(forged_stack + sizeof(forged_stack) - 8);
		g[REG_EFL] = 0x3000 | 0x4000 | 0x200;       /* IOPL 3, NT */
		g[REG_CSGSFS] = 0x0010000000000008;         /* the kernel's CS and SS */
		memset(forged_fx, 0xff, sizeof(forged_fx)); /* MXCSR's reserved bits too */
		uc->uc_mcontext.fpregs = (fpregset_t)forged_fx;
		if (kind == 2)
			g[REG_RIP] = (greg_t)0xdead00000000beefULL; /* not canonical */
	}
	sigreturn_at(frame + 8);
	return 0;
}

static int child_status(int (*fn)(int), int arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg) + 100);
	waitpid(pid, &status, 0);
	return status;
}

static void check_hostile(void)
{
	struct sigaction sa;
	int st;

	st = child_status(forged_frame, 0);
	report("rt_sigreturn with a garbage frame", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "not SIGSEGV");
	st = child_status(forged_frame, 1);
	report("rt_sigreturn sanitises a forged frame", WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "kernel selectors, IOPL or MXCSR bits came through");
	st = child_status(forged_frame, 2);
	report("rt_sigreturn to a non-canonical address",
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "not SIGSEGV");

	memset(&sa, 0, sizeof(sa));
	errno = 0;
	report("sigaction with a bad act",
	       syscall(SYS_rt_sigaction, SIGUSR1, (void *)16, NULL, 8) == -1 && errno == EFAULT,
	       "not EFAULT");
	report("sigaction with a bad oldact",
	       syscall(SYS_rt_sigaction, SIGUSR1, NULL, (void *)16, 8) == -1 && errno == EFAULT,
	       "not EFAULT");
	report("sigaction of signal 0",
	       syscall(SYS_rt_sigaction, 0, &sa, NULL, 8) == -1 && errno == EINVAL, "not EINVAL");
	report("sigaction of signal 65",
	       syscall(SYS_rt_sigaction, 65, &sa, NULL, 8) == -1 && errno == EINVAL, "not EINVAL");
	report("sigaction of SIGKILL",
	       syscall(SYS_rt_sigaction, SIGKILL, &sa, NULL, 8) == -1 && errno == EINVAL,
	       "not EINVAL");
	report("kill with signal 65", kill(getpid(), 65) == -1 && errno == EINVAL, "not EINVAL");
	report("rt_sigprocmask with a bad set",
	       syscall(SYS_rt_sigprocmask, SIG_BLOCK, (void *)16, NULL, 8) == -1 && errno == EFAULT,
	       "not EFAULT");
}

/* ---------------------------------------------------------------- the shell's signals */

static volatile sig_atomic_t caught;

static void on_shell_signal(int sig)
{
	const char *msg = sig == SIGINT ? "caught SIGINT\n" : "caught SIGTERM\n";

	write(1, msg, strlen(msg));
	caught++;
}

static int wait_signals(int n, const char *ready)
{
	signal(SIGINT, on_shell_signal);
	signal(SIGTERM, on_shell_signal);
	printf("waiting for signals\n");
	fflush(stdout);
	if (ready)
		fclose(fopen(ready, "w"));
	while (caught < n)
		pause();
	return n;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "execcheck"))
		return exec_check();
	if (argc > 2 && !strcmp(argv[1], "waitsig"))
		return wait_signals(atoi(argv[2]), argc > 3 ? argv[3] : NULL);
	check_siginfo();
	check_registers();
	check_mask();
	check_nodefer();
	check_resethand();
	check_faults();
	check_bad_stack();
	check_altstack();
	check_pipe_read(0, "pipe read interrupted: EINTR");
	check_pipe_read(SA_RESTART, "pipe read restarted (SA_RESTART)");
	check_spinning();
	check_alarm();
	check_threads();
	check_fork();
	check_exec(argv[0]);
	check_hostile();
	printf("signals: %d failed\n", failures);
	return failures ? 1 : 0;
}
