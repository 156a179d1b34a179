/*
 * The application processors' first code (Intel SDM, "MP initialization"): a startup IPI
 * starts a CPU in real mode at TRAMPOLINE_BASE, where smpboot.c has copied this image and
 * filled in its last words. It enters protected mode through its own small GDT, turns on
 * PAE and long mode with page tables that map this page at its physical address as well as
 * the kernel's half, and jumps to start_secondary(cpu), in the high half, on the stack it
 * was given; start_secondary() moves to the kernel's own page tables.
 */
#include "../../boot/long-mode.inc"
#define TRAMPOLINE_BASE 0x8000
#define T(x) ((x) - trampoline_start + TRAMPOLINE_BASE)

	.section .rodata
	.globl trampoline_start, trampoline_end, trampoline_cr3, trampoline_stack
	.globl trampoline_entry, trampoline_cpu
	.code16
	.balign 16
trampoline_start:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl T(tramp_gdt_desc)
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl $0x08, $T(tramp_protected)

	.code32
tramp_protected:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl T(trampoline_cr3), %eax
	enter_long_mode
	ljmpl $0x18, $T(tramp_long)

	.code64
tramp_long:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movq T(trampoline_stack), %rsp
	xorl %ebp, %ebp
	movl T(trampoline_cpu), %edi
	movq T(trampoline_entry), %rax
	call *%rax
1:	cli
	hlt
	jmp 1b

	.balign 16
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff   /* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff   /* 0x10: data */
	.quad 0x00af9a000000ffff   /* 0x18: 64-bit code */
tramp_gdt_end:
tramp_gdt_desc:
	.short tramp_gdt_end - tramp_gdt - 1
	.long T(tramp_gdt)

	.balign 8
trampoline_cr3: .quad 0
trampoline_stack: .quad 0
trampoline_entry: .quad 0
trampoline_cpu: .long 0
trampoline_end:
