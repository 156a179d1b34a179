/* What the kernel keeps from GRUB's multiboot2 information (copied before memory is reused). */
#ifndef CGWB_KERNEL_MULTIBOOT_H
#define CGWB_KERNEL_MULTIBOOT_H

#include <cgwb/types.h>

#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289
#define MB_MEMORY_AVAILABLE 1
#define MB_MAX_MMAP 64

struct mb_mmap_entry {
	u64 base, len;
	u32 type;
};

struct boot_info {
	char cmdline[512];
	struct mb_mmap_entry mmap[MB_MAX_MMAP];
	unsigned int nr_mmap;
	u8 rsdp[36];
	bool has_rsdp;
	u64 info_start, info_end; /* where GRUB put the information itself */
};

extern struct boot_info boot_info;
int multiboot_parse(u32 magic, u64 info_phys);
/* meminit.c: give the memory map's available RAM to the page allocator. */
void mem_init(void);

#endif
