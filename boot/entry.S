/*
 * 32-bit entry from GRUB (multiboot2: EAX = magic, EBX = info, protected mode, paging off),
 * running at its physical address from the image's .boot section. Builds the boot page
 * tables (include/cgwb/memlayout.h): the low 4 GiB mapped at PAGE_OFFSET (the direct map)
 * and, for the few instructions until the jump to the high half, at 0 too; the first GiB
 * at __START_KERNEL_map, where the rest of the image is linked. 2 MiB pages throughout.
 * Enters long mode, jumps to the image's high address, drops the identity map (nothing
 * below TASK_SIZE_MAX is the kernel's from then on, so a NULL dereference faults) and calls
 * kmain(magic, info) on the boot stack.
 */
#include <cgwb/memlayout.h>
#include "long-mode.inc"
#define PTE_P 0x1
#define PTE_W 0x2
#define PTE_PS 0x80
#define BOOT_STACK_SIZE 16384
/* no parentheses: GAS would read a leading one in a memory operand as a base register */
#define PA(x) x - __START_KERNEL_map
#define PGD_DIRECT_MAP 273 /* pgd_index(PAGE_OFFSET) */
#define PUD_KERNEL_MAP 510 /* (__START_KERNEL_map >> 30) & 511 */

	.section .text.boot, "ax"
	.code32
	.globl _start32
_start32:
	cli
	cld
	movl $PA(boot_stack_top), %esp
	movl %eax, PA(boot_magic)
	movl %ebx, PA(boot_info_phys)

	/* long mode available? (CPUID 0x80000001 EDX bit 29) */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	btl $29, %edx
	jnc no_long_mode

	/* PML4[0] and PML4[273] -> the low 4 GiB's PDPT; PML4[511] -> the image's PDPT */
	movl $PA(boot_pdpt), %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, PA(boot_pml4)
	movl %eax, PA(boot_pml4) + PGD_DIRECT_MAP * 8
	movl $PA(boot_pdpt_kernel), %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, PA(boot_pml4) + 511 * 8

	/* boot_pdpt[0..3] -> 4 page directories; the image's PDPT reuses the first one */
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $12, %eax
	addl $PA(boot_pd), %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, PA(boot_pdpt)(, %ecx, 8)
	incl %ecx
	cmpl $4, %ecx
	jb 1b
	movl PA(boot_pdpt), %eax
	movl %eax, PA(boot_pdpt_kernel) + PUD_KERNEL_MAP * 8

	/* 2048 PD entries of 2 MiB each: 4 GiB. Entry i maps i * 2 MiB. */
	xorl %ecx, %ecx
2:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_P | PTE_W | PTE_PS), %eax
	movl %eax, PA(boot_pd)(, %ecx, 8)
	movl %ecx, %eax
	shrl $11, %eax
	movl %eax, PA(boot_pd) + 4(, %ecx, 8)
	incl %ecx
	cmpl $2048, %ecx
	jb 2b

	movl $PA(boot_pml4), %eax
	enter_long_mode

	lgdt boot_gdt_desc
	ljmp $0x08, $start64_low

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
start64_low:
	movabsq $start64, %rax
	jmp *%rax

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

	.text
start64:
	/* the GDT by its high address, before the identity map that reaches it goes */
	movabsq $__START_KERNEL_map, %rax
	addq %rax, boot_gdt_high_desc + 2(%rip)
	lgdt boot_gdt_high_desc(%rip)
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $boot_stack_top, %rsp
	movq $0, boot_pml4(%rip)
	movq %cr3, %rax
	movq %rax, %cr3
	xorl %ebp, %ebp
	movl boot_magic(%rip), %edi
	movl boot_info_phys(%rip), %esi
	call kmain
6:	cli
	hlt
	jmp 6b

	.section .data
	.globl boot_magic, boot_info_phys
boot_magic: .long 0
boot_info_phys: .long 0
boot_gdt_high_desc:
	.short boot_gdt_end - boot_gdt - 1
	.quad boot_gdt

	.section .bss
	.balign 4096
	.globl boot_pml4, boot_pdpt, boot_pd
boot_pml4: .skip 4096
boot_pdpt: .skip 4096
boot_pdpt_kernel: .skip 4096
boot_pd: .skip 4096 * 4
	.balign 16
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip BOOT_STACK_SIZE
boot_stack_top:
