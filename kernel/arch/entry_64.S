/*
 * Between user mode and the kernel (Linux's arch/x86/entry/entry_64.S).
 *
 *   int arch_run_user(struct pt_regs *regs, unsigned long *kernel_sp, void *rsp0)
 *	Interrupts off. Saves the caller's callee-saved registers on its stack and that stack
 *	pointer in *kernel_sp; below it (16-byte aligned) is where the program's traps land:
 *	written to *rsp0 (this CPU's TSS) and this CPU's top_of_stack. Then enters user mode
 *	with the registers in regs (in the caller's frame). Returns the code
 *	arch_leave_user() is given.
 *   void arch_leave_user(unsigned long kernel_sp, int code)
 *	Back onto that stack, as if arch_run_user() returned code: whatever the kernel was
 *	doing below it (a system call, a trap) is dropped, so it must hold nothing.
 *   entry_SYSCALL_64
 *	The SYSCALL instruction's target (LSTAR): the program's RIP is in RCX, its RFLAGS in
 *	R11, and RSP is still the program's. GS is swapped to the kernel's, the stack moved to
 *	this CPU's top_of_stack (just below the frames of the arch_run_user() that is
 *	running), a struct pt_regs built as an interrupt's (the vector slot holds the system
 *	call's number, Linux's orig_ax) and do_syscall_64(regs) called. The way back is
 *	IRETQ for every return: SYSRET's traps (a non-canonical RCX) are not worth a fast path
 *	under TCG.
 */
#include "regs.inc"
#include <cgwb/percpu.h>
#define USER_DS (0x30 | 3) /* kernel/arch/gdt.c */
#define USER_CS (0x38 | 3)

	.text
	.globl arch_run_user
arch_run_user:
	push_callee_saved
	movq %rsp, (%rsi)
	movq %rsp, %rax
	andq $-16, %rax
	movq %rax, (%rdx)
	movq %rax, %gs:PCPU_HOT_TOP_OF_STACK
	movq %rdi, %rsp
	jmp ret_to_user

	.globl arch_leave_user
arch_leave_user:
	movq %rdi, %rsp
	movl %esi, %eax
	pop_callee_saved
	sti
	ret

	.globl entry_SYSCALL_64
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:PCPU_HOT_USER_RSP
	movq %gs:PCPU_HOT_TOP_OF_STACK, %rsp
	pushq $USER_DS
	pushq %gs:PCPU_HOT_USER_RSP
	pushq %r11
	pushq $USER_CS
	pushq %rcx
	pushq $0                  /* error_code */
	pushq %rax                /* vector: the system call's number */
	push_pt_regs
	cld
	xorl %ebp, %ebp           /* backtraces stop here, not in the program's frames */
	movq %rsp, %rdi
	call do_syscall_64
	/* fall through */

/* RSP at a struct pt_regs that returns to user mode; interrupts may be on. */
ret_to_user:
	cli
	pop_pt_regs
	addq $16, %rsp
	swapgs
	iretq
