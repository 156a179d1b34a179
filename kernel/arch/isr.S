/*
 * Interrupt and exception entry: one stub per vector pushes a dummy error code where the CPU
 * does not, then the vector, then the general registers (struct pt_regs), and calls
 * do_interrupt(regs). Everything runs in ring 0 on the current task's stack (IST stacks for
 * #DF, NMI and #MC); from user mode the CPU has switched to the TSS's rsp0 and GS is swapped
 * to the kernel's on the way in and back on the way out (the CS slot says where it came from).
 */
#include "regs.inc"
	.text

.macro ISR_NOERR vec
	.balign 16
isr_\vec:
	pushq $0
	pushq $\vec
	jmp isr_common
.endm

.macro ISR_ERR vec
	.balign 16
isr_\vec:
	pushq $\vec
	jmp isr_common
.endm

isr_common:
	testb $3, 24(%rsp)        /* CS: from user mode? */
	jz 1f
	swapgs
1:	push_pt_regs
	cld
	movq %rsp, %rdi
	/* frame so backtraces walk from the handler into the interrupted code */
	movq 15*8+2*8(%rsp), %rax  /* interrupted rip */
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call do_interrupt
	addq $16, %rsp
	pop_pt_regs
	addq $16, %rsp
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq

/* vectors with a CPU-pushed error code: 8, 10-14, 17, 21, 29, 30 */
.altmacro
.macro ISR_ONE n
	.if (\n == 8) || (\n >= 10 && \n <= 14) || (\n == 17) || (\n == 21) || (\n == 29) || (\n == 30)
	ISR_ERR \n
	.else
	ISR_NOERR \n
	.endif
.endm

.set i, 0
.rept 256
	ISR_ONE %i
	.set i, i + 1
.endr

	.section .rodata
	.balign 8
	.globl isr_table
isr_table:
.macro ISR_ADDR n
	.quad isr_\n
.endm
.set i, 0
.rept 256
	ISR_ADDR %i
	.set i, i + 1
.endr
