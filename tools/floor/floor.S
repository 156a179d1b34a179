/*
 * The boot-time floor for `make bench`: the smallest multiboot2 kernel, which exits QEMU
 * through isa-debug-exit the moment GRUB starts it. Booted the same way as cgwb, it
 * measures QEMU + firmware + GRUB alone.
 */
	.section .multiboot, "a"
	.balign 8
hdr:	.long 0xE85250D6, 0, hdr_end - hdr, -(0xE85250D6 + (hdr_end - hdr))
	.short 0, 0
	.long 8
hdr_end:

	.text
	.code32
	.globl _start
_start:
	movb $0, %al
	outb %al, $0xf4
1:	hlt
	jmp 1b
