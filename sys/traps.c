/*
 * A program's exceptions and the way back to it (Linux's arch/x86/kernel/traps.c and
 * fault.c, and the signal check of exit_to_user_mode()). A page fault is first the address
 * space's to resolve; what it cannot, and every other exception from user mode, ends the
 * program with the signal Linux would send (no handlers yet: its default action) and one
 * log line as Linux's; saying "Segmentation fault" is the shell's. A page fault in
 * the kernel on a program's address is resolved the same way when the kernel may sleep
 * there; otherwise the architecture's uaccess fixup takes it. Kills (Ctrl-C, kill, the OOM
 * killer) take effect on the way back to user mode.
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/irqflags.h>
#include "internal.h"

static int trap_signal(u64 vector)
{
	switch (vector) {
	case 0:  /* divide error */
	case 16: /* x87 error */
	case 19: /* SIMD error */
		return SIGFPE;
	case 1: /* debug */
	case 3: /* breakpoint */
		return SIGTRAP;
	case 6: /* invalid opcode */
		return SIGILL;
	case 17: /* alignment check */
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}

static __noreturn void kill_on_trap(struct pt_regs *regs, u64 addr, int fault_err)
{
	/* no such address or not allowed: SIGSEGV; the file failed the page (past its end,
	 * out of space, an IO error): SIGBUS, as Linux's VM_FAULT_SIGBUS */
	bool bus = fault_err != -EFAULT && fault_err != -EACCES;
	int sig = regs->vector == 14 && bus ? SIGBUS : trap_signal(regs->vector);

	local_irq_enable();
	if (sig == SIGSEGV && regs->vector == 14)
		pr_info("%s[%d]: segfault at %llx ip %llx sp %llx error %llx\n", current->comm,
			current->pid, addr, regs->rip, regs->rsp, regs->error_code);
	else
		pr_info("%s[%d]: trap %llu ip %llx sp %llx error %llx\n", current->comm,
			current->pid, regs->vector, regs->rip, regs->rsp, regs->error_code);
	program_group_exit(sig); /* a fault ends the whole process, as Linux's signal */
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

		if (err)
			kill_on_trap(regs, addr, err);
		return true;
	}
	/* the kernel touching a program's memory (copy_to_user and friends) */
	if (regs->vector != 14 || addr >= TASK_SIZE_MAX || preempt_count() || !(regs->rflags & 0x200))
		return false;
	return resolve_fault(regs, addr) == 0;
}

void exit_to_user_mode(struct pt_regs *regs)
{
	(void)regs;
	if (signal_pending(current))
		program_kill_exit();
}

static const struct user_mode_ops ops = {
	.user_trap = user_trap_hook,
	.exit_to_user = exit_to_user_mode,
};

void traps_init(void)
{
	user_mode_register(&ops);
}
