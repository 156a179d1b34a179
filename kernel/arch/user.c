/*
 * User mode on x86_64 (<cgwb/user.h>): the SYSCALL MSRs and the FPU of each CPU, a
 * program's thread state and what a context switch does with it, and the first look at
 * every exception.
 *
 * - FPU: eager, as Linux's. A program's x87/SSE registers are saved (FXSAVE) when its task
 *   is switched away from and restored when it comes back; the kernel never touches them
 *   (-mgeneral-regs-only), so tasks without a program leave them alone.
 * - Page tables: a program's task runs on its own (CR3 at each switch to it); any other
 *   task on the kernel's, so no task runs on tables that their program might free.
 *   CR0.WP is set: the kernel's stores into a program's read-only pages fault as the
 *   program's would (copy-on-write, a shared page's first store).
 * - TLS: FS and the user GS base are per thread, written at each switch to it; the program
 *   changes them only through arch_prctl (CR4.FSGSBASE stays off).
 */
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/percpu.h>
#include "x86.h"

#define MSR_EFER 0xc0000080
#define EFER_SCE 0x1
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_FMASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define MSR_KERNEL_GS_BASE 0xc0000102
#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_DF 0x400
#define X86_EFLAGS_NT 0x4000
#define X86_EFLAGS_AC 0x40000
#define X86_EFLAGS_FIXED 0x2
#define CR0_MP 0x2
#define CR0_EM 0x4
#define CR0_TS 0x8
#define CR0_WP 0x10000
#define CR4_OSFXSR 0x200
#define CR4_OSXMMEXCPT 0x400
#define FCW_DEFAULT 0x37f
#define MXCSR_DEFAULT 0x1f80

_Static_assert(__builtin_offsetof(struct pcpu_hot, top_of_stack) == PCPU_HOT_TOP_OF_STACK,
	       "entry_64.S reads top_of_stack at this offset");
_Static_assert(__builtin_offsetof(struct pcpu_hot, user_rsp) == PCPU_HOT_USER_RSP, "entry_64.S "
										   "keeps the "
										   "program's RSP "
										   "at this "
										   "offset");

static const struct user_mode_ops *user_ops;

void user_mode_register(const struct user_mode_ops *ops)
{
	user_ops = ops;
}

void user_cpu_init(unsigned int cpu)
{
	u64 cr0 = (read_cr0() | CR0_MP | CR0_WP) & ~(u64)(CR0_EM | CR0_TS);

	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	__asm__ volatile("mov %0, %%cr4" : : "r"(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT));
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_STAR, ((u64)USER32_CS << 48) | ((u64)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)(uintptr_t)entry_SYSCALL_64);
	wrmsr(MSR_FMASK,
	      X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_NT | X86_EFLAGS_AC);
	tss_set_rsp0(cpu, 0);
}

void fxsave_init(u8 *fx)
{
	memset(fx, 0, FXSAVE_SIZE);
	*(u16 *)&fx[0] = FCW_DEFAULT;
	*(u32 *)&fx[24] = MXCSR_DEFAULT;
}

struct user_thread *user_thread_alloc(u64 *pgd)
{
	struct user_thread *ut = kzalloc(sizeof(*ut), GFP_KERNEL);

	if (!ut)
		return NULL;
	BUILD_BUG_ON(__alignof__(struct user_thread) < 16);
	fxsave_init(ut->fxsave);
	ut->pgd = pgd;
	return ut;
}

/* Current's program is over: back to the kernel's tables before they can go. */
void user_thread_free(struct user_thread *ut)
{
	unsigned long flags = arch_local_irq_save();

	if (current->uthread == ut)
		current->uthread = NULL;
	if (read_cr3() == virt_to_phys(ut->pgd))
		write_cr3(virt_to_phys(boot_pml4));
	arch_local_irq_restore(flags);
	kfree(ut);
}

void user_regs_init(struct pt_regs *regs, u64 entry, u64 sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->rip = entry;
	regs->rsp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
}

struct user_thread *user_thread_fork(u64 *pgd)
{
	struct user_thread *ut = user_thread_alloc(pgd);

	if (!ut)
		return NULL;
	/* the live registers are current's: a switch meanwhile saves and restores the same */
	__asm__ volatile("fxsave64 %0" : "=m"(*(u8(*)[512])ut->fxsave));
	ut->fs_base = current->uthread->fs_base;
	ut->gs_base = current->uthread->gs_base;
	return ut;
}

void user_thread_exec(u64 *pgd)
{
	struct user_thread *ut = current->uthread;
	unsigned long flags = arch_local_irq_save();

	fxsave_init(ut->fxsave);
	__asm__ volatile("fxrstor64 %0" : : "m"(*(const u8(*)[512])ut->fxsave));
	ut->fs_base = ut->gs_base = 0;
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	ut->pgd = pgd;
	write_cr3(virt_to_phys(pgd));
	arch_local_irq_restore(flags);
}

/* Entries from user mode push their frame down from kernel_sp's 16-byte boundary. */
struct pt_regs *current_user_regs(void)
{
	return (struct pt_regs *)(current->uthread->kernel_sp & ~15UL) - 1;
}

int user_thread_run(struct pt_regs *regs)
{
	struct user_thread *ut = current->uthread;

	BUG_ON(!ut);
	arch_local_irq_disable();
	__asm__ volatile("fxrstor64 %0" : : "m"(*(const u8(*)[512])ut->fxsave));
	wrmsr(MSR_FS_BASE, ut->fs_base);
	wrmsr(MSR_KERNEL_GS_BASE, ut->gs_base);
	write_cr3(virt_to_phys(ut->pgd));
	return arch_run_user(regs, &ut->kernel_sp, tss_rsp0_slot(raw_smp_processor_id()));
}

__noreturn void user_thread_leave(int code)
{
	arch_local_irq_disable();
	arch_leave_user(current->uthread->kernel_sp, code);
}

void user_set_fs_base(u64 base)
{
	current->uthread->fs_base = base;
	wrmsr(MSR_FS_BASE, base);
}

void user_set_gs_base(u64 base)
{
	current->uthread->gs_base = base;
	wrmsr(MSR_KERNEL_GS_BASE, base); /* swapped in by the return to user mode */
}

u64 arch_fault_address(void)
{
	return read_cr2();
}

/* Interrupts off, in arch_switch_to(). */
void user_switch(struct task_struct *prev, struct task_struct *next)
{
	struct user_thread *ut = next->uthread;
	u64 cr3;

	if (prev->uthread)
		__asm__ volatile("fxsave64 %0" : "=m"(*(u8(*)[512])prev->uthread->fxsave));
	if (!ut) {
		cr3 = virt_to_phys(boot_pml4);
	} else {
		u64 top = ut->kernel_sp & ~15UL;

		__asm__ volatile("fxrstor64 %0" : : "m"(*(const u8(*)[512])ut->fxsave));
		wrmsr(MSR_FS_BASE, ut->fs_base);
		wrmsr(MSR_KERNEL_GS_BASE, ut->gs_base);
		tss_set_rsp0(raw_smp_processor_id(), top);
		__pcpu_hot_write(top_of_stack, top);
		cr3 = virt_to_phys(ut->pgd);
	}
	if (read_cr3() != cr3)
		write_cr3(cr3);
}

/*
 * A page fault in copy_user_generic() that the system-call layer could not resolve (a bad
 * pointer from a program) ends the copy short instead of the kernel.
 */
static bool fixup_uaccess(struct pt_regs *regs)
{
	if (regs->vector != 14 || regs->rip != (u64)(uintptr_t)copy_user_generic_insn)
		return false;
	regs->rip = (u64)(uintptr_t)copy_user_generic_fixup;
	return true;
}

bool user_trap(struct pt_regs *regs)
{
	if (user_ops && user_ops->user_trap(regs))
		return true;
	return !user_mode(regs) && fixup_uaccess(regs);
}

void user_exit_to_user_mode(struct pt_regs *regs)
{
	if (user_ops)
		user_ops->exit_to_user(regs);
}
