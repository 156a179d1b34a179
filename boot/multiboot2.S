/* Multiboot2 header: GRUB finds it in the first 32 KiB of the image and loads our ELF. */
#define MB2_MAGIC 0xE85250D6
#define MB2_ARCH_I386 0

	.section .multiboot, "a"
	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	/* information request: command line, memory map, ACPI RSDP (old and new) */
	.balign 8
info_req:
	.short 1, 0
	.long info_req_end - info_req
	.long 1, 6, 14, 15
info_req_end:

	/* end tag */
	.balign 8
	.short 0, 0
	.long 8
mb2_header_end:
