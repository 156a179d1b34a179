/*
 * 32-bit entry from GRUB (multiboot2: EAX = magic, EBX = info, protected mode, paging off).
 * Builds page tables that identity-map the low 4 GiB (2 MiB pages, except the first 2 MiB
 * which uses 4 KiB pages so that page 0 stays unmapped and NULL dereferences fault), enters
 * long mode and calls kmain(magic, info) on the boot stack.
 */
#include "long-mode.inc"
#define PTE_P 0x1
#define PTE_W 0x2
#define PTE_PS 0x80
#define BOOT_STACK_SIZE 16384

	.section .text.boot, "ax"
	.code32
	.globl _start32
_start32:
	cli
	cld
	movl $boot_stack_top, %esp
	movl %eax, boot_magic
	movl %ebx, boot_info_phys

	/* long mode available? (CPUID 0x80000001 EDX bit 29) */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	btl $29, %edx
	jnc no_long_mode

	/* PML4[0] -> PDPT; PDPT[0..3] -> 4 page directories */
	movl $boot_pdpt, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pml4

	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $12, %eax
	addl $boot_pd, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pdpt(, %ecx, 8)
	incl %ecx
	cmpl $4, %ecx
	jb 1b

	/* 2048 PD entries of 2 MiB each: 4 GiB. Entry i maps i * 2 MiB. */
	xorl %ecx, %ecx
2:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_P | PTE_W | PTE_PS), %eax
	movl %eax, boot_pd(, %ecx, 8)
	movl %ecx, %eax
	shrl $11, %eax
	movl %eax, boot_pd + 4(, %ecx, 8)
	incl %ecx
	cmpl $2048, %ecx
	jb 2b

	/* first 2 MiB through a page table; entry 0 left not-present */
	movl $boot_pt0, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pd
	movl $1, %ecx
3:	movl %ecx, %eax
	shll $12, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pt0(, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jb 3b

	enter_long_mode $boot_pml4

	lgdt boot_gdt_desc
	ljmp $0x08, $start64

no_long_mode:
	movl $no_lm_msg, %esi
4:	lodsb
	testb %al, %al
	jz 5f
	outb %al, $0xe9
	movw $0x3f8, %dx
	outb %al, %dx
	jmp 4b
5:	hlt
	jmp 5b

	.code64
start64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp
	movl boot_magic, %edi
	movl boot_info_phys, %esi
	call kmain
6:	cli
	hlt
	jmp 6b

	.section .rodata
no_lm_msg:
	.asciz "cgwb: this CPU has no long mode (x86_64 required)\n"

	.balign 16
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff   /* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff   /* 0x10: data */
boot_gdt_end:
boot_gdt_desc:
	.short boot_gdt_end - boot_gdt - 1
	.quad boot_gdt

	.section .data
	.globl boot_magic, boot_info_phys
boot_magic: .long 0
boot_info_phys: .long 0

	.section .bss
	.balign 4096
	.globl boot_pml4, boot_pdpt, boot_pd, boot_pt0
boot_pml4: .skip 4096
boot_pdpt: .skip 4096
boot_pd: .skip 4096 * 4
boot_pt0: .skip 4096
	.balign 16
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip BOOT_STACK_SIZE
boot_stack_top:
