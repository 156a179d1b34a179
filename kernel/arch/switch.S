/*
 * Context switch between kernel tasks: callee-saved registers go on the old task's stack,
 * its stack pointer into prev->sp; the new task's are restored the same way.
 *
 *   void __switch_to(unsigned long *prev_sp, unsigned long next_sp)
 *
 * A new task's stack is prepared (kernel/arch/task.c) so that this "returns" into
 * ret_from_kthread, which calls kthread_entry() and never comes back.
 */
#include "regs.inc"
	.text
	.globl __switch_to
__switch_to:
	push_callee_saved
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	pop_callee_saved
	ret

	.globl ret_from_kthread
ret_from_kthread:
	xorl %ebp, %ebp
	call kthread_entry
1:	hlt
	jmp 1b
