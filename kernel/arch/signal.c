/*
 * A signal handler's frame on x86_64 (Linux's arch/x86/kernel/signal.c and signal_64.c):
 * the layout C libraries and debuggers know, below the interrupted stack's red zone, on
 * the alternate stack with SA_ONSTACK:
 *
 *   FXSAVE area    512 bytes, 64-byte aligned; sigcontext.fpstate points at it
 *   rt_sigframe    the return address (sa_restorer), struct ucontext, siginfo_t
 *
 * The handler starts with RSP at the frame, 8 past a 16-byte boundary as after a call, and
 * with a fresh FPU state. rt_sigreturn reads the frame back through the same RSP (the
 * handler's return popped the address): whatever the program wrote there, the registers
 * that come back are user mode's (user selectors, flags a program may set, a user RIP) and
 * an FXRSTOR image that cannot fault (MXCSR's reserved bits cleared).
 */
#include <cgwb/user.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "x86.h"

#define X86_EFLAGS_FIXED 0x2
#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_DF 0x400
#define X86_EFLAGS_RF 0x10000
/* the flags rt_sigreturn takes from the frame: CF PF AF ZF SF TF DF OF RF AC, as Linux's */
#define FIX_EFLAGS 0x50dd5
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define RED_ZONE 128

struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip;
	u64 eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate; /* the FXSAVE area's address; 0: the FPU as FNINIT leaves it */
	u64 reserved1[8];
};

struct ucontext {
	u64 uc_flags;
	u64 uc_link;
	struct user_stack uc_stack;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;
};

struct siginfo {
	int si_signo, si_errno, si_code;
	union {
		struct {
			int pid;
			u32 uid;
			int status; /* SIGCHLD */
		} kill;
		u64 addr; /* faults */
		struct {
			int pid;
			u32 uid;
			u64 value; /* sigval */
		} rt;              /* sigqueue, timers, mq_notify: the codes below 0 but SI_TKILL */
		u8 pad[112];
	} __attribute__((aligned(8)));
};

struct rt_sigframe {
	u64 pretcode;
	struct ucontext uc;
	struct siginfo info;
};

_Static_assert(sizeof(struct sigcontext) == 256, "Linux's struct sigcontext");
_Static_assert(__builtin_offsetof(struct ucontext, uc_mcontext) == 40, "glibc's ucontext_t");
_Static_assert(sizeof(struct ucontext) == 304, "Linux's struct ucontext");
_Static_assert(sizeof(struct siginfo) == 128, "siginfo_t");
_Static_assert(__builtin_offsetof(struct siginfo, kill.pid) == 16, "siginfo_t's union");
_Static_assert(sizeof(struct user_stack) == 24, "stack_t");

/* Where the frame goes, and the FXSAVE area above it. */
static u64 get_sigframe(const struct ksignal *ksig, const struct pt_regs *regs, u64 *fx)
{
	u64 sp = regs->rsp - RED_ZONE;

	if ((ksig->ka.flags & SA_ONSTACK) && sas_ss_flags(&ksig->altstack, sp) == 0)
		sp = ksig->altstack.ss_sp + ksig->altstack.ss_size;
	*fx = (sp - FXSAVE_SIZE) & ~63UL;
	return ((*fx - sizeof(struct rt_sigframe)) & ~15UL) - 8;
}

static void save_sigcontext(struct sigcontext *sc, const struct pt_regs *regs,
			    const struct kernel_siginfo *info)
{
	*sc = (struct sigcontext){
		.r8 = regs->r8,
		.r9 = regs->r9,
		.r10 = regs->r10,
		.r11 = regs->r11,
		.r12 = regs->r12,
		.r13 = regs->r13,
		.r14 = regs->r14,
		.r15 = regs->r15,
		.rdi = regs->rdi,
		.rsi = regs->rsi,
		.rbp = regs->rbp,
		.rbx = regs->rbx,
		.rdx = regs->rdx,
		.rax = regs->rax,
		.rcx = regs->rcx,
		.rsp = regs->rsp,
		.rip = regs->rip,
		.eflags = regs->rflags,
		.cs = USER_CS,
		.ss = USER_DS,
	};
	if (info->trapno >= 0) {
		sc->trapno = (u64)info->trapno;
		sc->err = info->error_code;
		sc->cr2 = info->trapno == 14 ? info->addr : 0;
	}
}

static void fill_siginfo(struct siginfo *si, const struct kernel_siginfo *info)
{
	si->si_signo = info->signo;
	si->si_code = info->code;
	if (info->trapno >= 0) {
		si->addr = info->addr;
	} else if (info->code < 0 && info->code != SI_TKILL) {
		si->rt.pid = info->pid;
		si->rt.value = info->value;
	} else {
		si->kill.pid = info->pid;
		si->kill.status = info->status;
	}
}

int copy_siginfo_to_user(u64 uinfo, const struct kernel_siginfo *info)
{
	struct siginfo si;

	memset(&si, 0, sizeof(si));
	fill_siginfo(&si, info);
	return copy_to_user(uinfo, &si, sizeof(si)) ? -EFAULT : 0;
}

int copy_siginfo_from_user(struct kernel_siginfo *info, u64 uinfo)
{
	struct siginfo si;

	if (copy_from_user(&si, uinfo, sizeof(si)))
		return -EFAULT;
	*info = (struct kernel_siginfo){ .signo = si.si_signo,
					 .code = si.si_code,
					 .pid = si.rt.pid,
					 .value = si.rt.value,
					 .trapno = -1 };
	return 0;
}

static void fpu_load(const u8 *fx)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(*(const u8(*)[FXSAVE_SIZE])fx));
}

static void fpu_reset(void)
{
	u8 fx[FXSAVE_SIZE] __attribute__((aligned(16)));

	fxsave_init(fx);
	fpu_load(fx);
}

/* The live registers are the program's (eager FPU): a switch meanwhile keeps them. */
static int save_fpu(u64 ufx)
{
	u8 fx[FXSAVE_SIZE] __attribute__((aligned(16)));

	memset(fx, 0, sizeof(fx)); /* FXSAVE leaves the software bytes: no kernel stack leaks */
	__asm__ volatile("fxsave64 %0" : "=m"(*(u8(*)[FXSAVE_SIZE])fx));
	return copy_to_user(ufx, fx, sizeof(fx));
}

int setup_rt_frame(const struct ksignal *ksig, u64 blocked, struct pt_regs *regs)
{
	struct rt_sigframe f;
	u64 fx, frame = get_sigframe(ksig, regs, &fx);

	if (!(ksig->ka.flags & SA_RESTORER) || !access_ok(frame, fx + FXSAVE_SIZE - frame))
		return -EFAULT; /* x86_64's C libraries always give a restorer */
	memset(&f, 0, sizeof(f));
	f.pretcode = ksig->ka.restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack = ksig->altstack;
	f.uc.uc_stack.ss_flags = sas_ss_flags(&ksig->altstack, regs->rsp);
	save_sigcontext(&f.uc.uc_mcontext, regs, &ksig->info);
	f.uc.uc_mcontext.oldmask = blocked;
	f.uc.uc_mcontext.fpstate = fx;
	f.uc.uc_sigmask = blocked;
	fill_siginfo(&f.info, &ksig->info);
	if (save_fpu(fx) || copy_to_user(frame, &f, sizeof(f)))
		return -EFAULT;

	regs->rdi = (u64)ksig->sig;
	regs->rsi = frame + __builtin_offsetof(struct rt_sigframe, info);
	regs->rdx = frame + __builtin_offsetof(struct rt_sigframe, uc);
	regs->rax = 0; /* a handler without SA_SIGINFO may be a varargs function */
	regs->rsp = frame;
	regs->rip = ksig->ka.handler;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags &= ~(u64)(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	fpu_reset();
	return 0;
}

/* The bits FXRSTOR accepts in MXCSR: a reserved one set would fault in the kernel. */
static u32 mxcsr_feature_mask(void)
{
	static u32 mask;
	u8 fx[FXSAVE_SIZE] __attribute__((aligned(16)));

	if (!READ_ONCE(mask)) {
		memset(fx, 0, sizeof(fx));
		__asm__ volatile("fxsave64 %0" : "=m"(*(u8(*)[FXSAVE_SIZE])fx));
		WRITE_ONCE(mask, *(u32 *)&fx[28] ?: 0xffbf);
	}
	return READ_ONCE(mask);
}

static int restore_fpu(u64 ufx)
{
	u8 fx[FXSAVE_SIZE] __attribute__((aligned(16)));

	if (!ufx) {
		fpu_reset();
		return 0;
	}
	if (copy_from_user(fx, ufx, sizeof(fx)))
		return -EFAULT;
	*(u32 *)&fx[24] &= mxcsr_feature_mask();
	fpu_load(fx);
	return 0;
}

static int restore_sigcontext(struct pt_regs *regs, const struct sigcontext *sc)
{
	/* IRETQ to a non-canonical RIP faults in the kernel: that frame ends the program */
	if (sc->rip >= TASK_SIZE_MAX || sc->rsp >= TASK_SIZE_MAX || restore_fpu(sc->fpstate))
		return -EFAULT;
	regs->r8 = sc->r8;
	regs->r9 = sc->r9;
	regs->r10 = sc->r10;
	regs->r11 = sc->r11;
	regs->r12 = sc->r12;
	regs->r13 = sc->r13;
	regs->r14 = sc->r14;
	regs->r15 = sc->r15;
	regs->rdi = sc->rdi;
	regs->rsi = sc->rsi;
	regs->rbp = sc->rbp;
	regs->rbx = sc->rbx;
	regs->rdx = sc->rdx;
	regs->rax = sc->rax;
	regs->rcx = sc->rcx;
	regs->rsp = sc->rsp;
	regs->rip = sc->rip;
	regs->rflags = (sc->eflags & FIX_EFLAGS) | X86_EFLAGS_IF | X86_EFLAGS_FIXED;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	return 0;
}

int restore_rt_frame(struct pt_regs *regs, u64 *blocked, struct user_stack *ss)
{
	u64 frame = regs->rsp - 8;
	struct ucontext uc;

	if (copy_from_user(&uc, frame + __builtin_offsetof(struct rt_sigframe, uc), sizeof(uc)) ||
	    restore_sigcontext(regs, &uc.uc_mcontext))
		return -EFAULT;
	*blocked = uc.uc_sigmask;
	*ss = uc.uc_stack;
	return 0;
}

/* SYSCALL is two bytes long; the number went into RAX's slot as orig_ax (entry_64.S). */
void syscall_restart(struct pt_regs *regs)
{
	regs->rax = regs->vector;
	regs->rip -= 2;
}

void syscall_forget(struct pt_regs *regs)
{
	regs->vector = (u64)-1;
}

long syscall_nr(const struct pt_regs *regs)
{
	return (long)regs->vector;
}
