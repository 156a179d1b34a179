/*
 * The kernel's virtual address space on x86_64, as Linux's (Documentation/x86/x86_64/mm.rst,
 * 4-level paging): the low half belongs to programs, the kernel lives in the high half and
 * is the same in every address space.
 *
 *   0x0000000000000000 - 0x00007fffffffefff   a program's (TASK_SIZE_MAX)
 *   0xffff888000000000 - ...                  the direct map of physical memory (PAGE_OFFSET)
 *   0xffffc90000000000 - +4 GiB               vmalloc
 *   0xffffffff80000000 - +1 GiB               the kernel image (__START_KERNEL_map + physical)
 *
 * The image is loaded at 1 MiB physical and runs at __START_KERNEL_map + 1 MiB (linker.ld
 * repeats the constant; the linker cannot read this header). The boot code before paging
 * runs at its physical address from the image's .boot section.
 */
#ifndef CGWB_MEMLAYOUT_H
#define CGWB_MEMLAYOUT_H

#ifdef __ASSEMBLER__
#define _AC(x, suffix) x
#else
#define _AC(x, suffix) x##suffix
#endif

#define __START_KERNEL_map _AC(0xffffffff80000000, UL)
#define PAGE_OFFSET _AC(0xffff888000000000, UL)
#define VMALLOC_START _AC(0xffffc90000000000, UL)
#define VMALLOC_SIZE _AC(0x100000000, UL)
#define VMALLOC_END (VMALLOC_START + VMALLOC_SIZE)
#define TASK_SIZE_MAX _AC(0x00007ffffffff000, UL)

/* Physical addresses of image symbols, for code that runs before paging is on. */
#define __pa_symbol(x) ((x)-__START_KERNEL_map)

/* The PML4 slots: 256..511 are the kernel's, shared by every address space. */
#define PGD_KERNEL_FIRST 256
#define pgd_index(va) (((va) >> 39) & 511)

#ifndef __ASSEMBLER__
/* The image's bounds (linker.ld), at their high addresses: its text ends at __text_end. */
extern char __kernel_start[], __text_end[], __kernel_end[];
#endif

#endif
