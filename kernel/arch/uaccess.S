/*
 * unsigned long copy_user_generic(void *dst, const void *src, unsigned long len)
 *
 * Copies len bytes, one side in a program's memory; returns how many were not copied. A
 * page fault on the program's side that the fault handler cannot resolve resumes at
 * copy_user_generic_fixup with RCX still counting what was left (kernel/arch/user.c,
 * Linux's exception table with one entry).
 */
	.text
	.globl copy_user_generic, copy_user_generic_insn, copy_user_generic_fixup
copy_user_generic:
	movq %rdx, %rcx
copy_user_generic_insn:
	rep movsb
	xorl %eax, %eax
	ret
copy_user_generic_fixup:
	movq %rcx, %rax
	ret
