/*
 * A program's exceptions and the way back to it (Linux's arch/x86/kernel/traps.c and
 * fault.c, and the signal check of exit_to_user_mode()). A page fault is first the address
 * space's to resolve; what it cannot, and every other exception from user mode, raises
 * the signal Linux would (with its si_code and si_addr): a handler takes it on the way
 * back; without one it ends the program with one log line as Linux's; saying
 * "Segmentation fault" is the shell's. A page fault in
 * the kernel on a program's address is resolved the same way when the kernel may sleep
 * there; otherwise the architecture's uaccess fixup takes it. Signals and kills (Ctrl-C,
 * kill, the OOM killer) take effect on the way back to user mode (signal.c).
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/irqflags.h>
#include "internal.h"
#include "signal.h"

/* si_code */
#define FPE_INTDIV 1
#define FPE_FLTINV 7
#define ILL_ILLOPN 2
#define BUS_ADRALN 1
#define BUS_ADRERR 2
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2

/* The signal Linux raises for an exception, and what siginfo says of it. */
static void trap_siginfo(const struct pt_regs *regs, u64 addr, int fault_err,
			 struct kernel_siginfo *info)
{
	*info = (struct kernel_siginfo){ .signo = SIGSEGV,
					 .code = SI_KERNEL,
					 .trapno = (int)regs->vector,
					 .error_code = regs->error_code };
	switch (regs->vector) {
	case 0: /* divide error */
		*info = (struct kernel_siginfo){ SIGFPE, FPE_INTDIV, .addr = regs->rip };
		break;
	case 16: /* x87 error */
	case 19: /* SIMD error */
		*info = (struct kernel_siginfo){ SIGFPE, FPE_FLTINV, .addr = regs->rip };
		break;
	case 1: /* debug */
	case 3: /* breakpoint */
		info->signo = SIGTRAP;
		break;
	case 6: /* invalid opcode */
		*info = (struct kernel_siginfo){ SIGILL, ILL_ILLOPN, .addr = regs->rip };
		break;
	case 17: /* alignment check */
		*info = (struct kernel_siginfo){ SIGBUS, BUS_ADRALN, .addr = addr };
		break;
	case 14:
		/* no such address or not allowed: SIGSEGV; the file failed the page (past its
		 * end, out of space, an IO error): SIGBUS, as Linux's VM_FAULT_SIGBUS */
		if (fault_err == -EFAULT || fault_err == -EACCES)
			*info = (struct kernel_siginfo){
				SIGSEGV, fault_err == -EFAULT ? SEGV_MAPERR : SEGV_ACCERR, .addr = addr
			};
		else
			*info = (struct kernel_siginfo){ SIGBUS, BUS_ADRERR, .addr = addr };
		break;
	}
	info->trapno = (int)regs->vector;
	info->error_code = regs->error_code;
}

/* The fault's signal: its handler's on the way back, or the end of the process. */
static void force_sig_trap(struct pt_regs *regs, u64 addr, int fault_err)
{
	struct kernel_siginfo info;

	trap_siginfo(regs, addr, fault_err, &info);
	if (force_sig_fault(&info))
		return;
	local_irq_enable();
	if (info.signo == SIGSEGV && regs->vector == 14)
		pr_info("%s[%d]: segfault at %llx ip %llx sp %llx error %llx\n", current->comm,
			current->pid, addr, regs->rip, regs->rsp, regs->error_code);
	else
		pr_info("%s[%d]: trap %llu ip %llx sp %llx error %llx\n", current->comm,
			current->pid, regs->vector, regs->rip, regs->rsp, regs->error_code);
	program_group_exit(info.signo); /* a fault ends the whole process, as Linux's signal */
}

/* A fault on a program's address, interrupts back on for the time it may sleep. */
static int resolve_fault(struct pt_regs *regs, u64 addr)
{
	int err;

	local_irq_enable();
	err = handle_mm_fault(current->mm, addr, (unsigned int)regs->error_code);
	local_irq_disable();
	return err;
}

static bool user_trap_hook(struct pt_regs *regs)
{
	u64 addr = regs->vector == 14 ? arch_fault_address() : 0;

	if (!current || !current->mm)
		return false;
	if (user_mode(regs)) {
		int err = regs->vector == 14 ? resolve_fault(regs, addr) : -EFAULT;

		/* a signal ended the fault's sleep: taken first, then the access again */
		if (err == -EINTR && signal_pending(current))
			return true;
		if (err)
			force_sig_trap(regs, addr, err);
		return true;
	}
	/* the kernel touching a program's memory (copy_to_user and friends) */
	if (regs->vector != 14 || addr >= TASK_SIZE_MAX || preempt_count() || !(regs->rflags & 0x200))
		return false;
	return resolve_fault(regs, addr) == 0;
}

static void handle_signals(struct pt_regs *regs, bool syscall)
{
	int end = do_signal(regs, syscall);

	if (end < 0)
		program_kill_exit();
	if (end > 0)
		program_group_exit(end);
}

void exit_to_user_mode(struct pt_regs *regs)
{
	if (signal_pending(current))
		handle_signals(regs, false);
}

void syscall_exit_to_user_mode(struct pt_regs *regs)
{
	if (signal_pending(current))
		handle_signals(regs, true);
}

static const struct user_mode_ops ops = {
	.user_trap = user_trap_hook,
	.exit_to_user = exit_to_user_mode,
};

void traps_init(void)
{
	user_mode_register(&ops);
}
