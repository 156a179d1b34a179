/*
 * Physical memory setup from the multiboot2 memory map: place the frame table (struct page
 * array) in free RAM above the kernel, then hand every available range to the page
 * allocator except the first megabyte (firmware), the kernel image and the frame table.
 * Only the identity-mapped low 4 GiB is used.
 *
 * Before that, the top BOOT_CODE_SCRUB bytes of every range are written over once. The
 * firmware and the boot loader ran code there (SeaBIOS relocates its init code to the top
 * of RAM; GRUB loads its modules into a heap it carves from the top of the largest range).
 * Under QEMU's TCG a page that still holds translated code makes every store to it take
 * the slow path that looks for self-modifying code, until every translated byte has been
 * overwritten: a task stack or a slab page that landed there made a whole dd 7 times
 * slower (16 instead of 110-170 MiB/s). One write of each byte drops the translations for
 * good; on real hardware or KVM it costs about a millisecond.
 */
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/string.h>
#include "multiboot.h"

#define LOW_LIMIT 0x100000ULL
#define BOOT_CODE_SCRUB (8ULL << 20)
#define MAPPED_LIMIT (4ULL << 30)

extern char __kernel_start[], __kernel_end[];

/* Free RAM for the allocator, its top written over first (the boot code's, see above). */
static void add_free_range(u64 start, u64 end)
{
	u64 scrub = end - start > BOOT_CODE_SCRUB ? end - BOOT_CODE_SCRUB : start;

	memset((void *)(uintptr_t)scrub, 0, (size_t)(end - scrub));
	page_alloc_add_range(start >> PAGE_SHIFT, end >> PAGE_SHIFT);
}

static void add_range_excluding(u64 start, u64 end, u64 ex_start, u64 ex_end)
{
	if (end <= ex_start || start >= ex_end) {
		if (start < end)
			add_free_range(start, end);
		return;
	}
	if (start < ex_start)
		add_free_range(start, ex_start);
	if (end > ex_end)
		add_free_range(ex_end, end);
}

void mem_init(void)
{
	u64 kstart = (u64)(uintptr_t)__kernel_start, kend = PAGE_ALIGN((u64)(uintptr_t)__kernel_end);
	u64 top = 0, map_at = 0, map_size;
	unsigned long nr_pfns;

	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct mb_mmap_entry *e = &boot_info.mmap[i];
		if (e->type == MB_MEMORY_AVAILABLE && e->base + e->len > top)
			top = min(e->base + e->len, MAPPED_LIMIT);
	}
	if (!top)
		panic("no usable memory in the multiboot memory map");
	nr_pfns = (unsigned long)(top >> PAGE_SHIFT);
	map_size = PAGE_ALIGN((u64)nr_pfns * sizeof(struct page));

	/* the frame table goes right after the kernel if that range is available RAM */
	for (unsigned int i = 0; i < boot_info.nr_mmap && !map_at; i++) {
		const struct mb_mmap_entry *e = &boot_info.mmap[i];
		u64 start = max(PAGE_ALIGN(e->base), kend);
		if (e->type == MB_MEMORY_AVAILABLE && start + map_size <= min(e->base + e->len, top))
			map_at = start;
	}
	if (!map_at)
		panic("no room for the frame table (%llu KiB)", map_size >> 10);

	page_alloc_init((struct page *)(uintptr_t)map_at, nr_pfns, 0);
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct mb_mmap_entry *e = &boot_info.mmap[i];
		u64 start = PAGE_ALIGN(max(e->base, LOW_LIMIT));
		u64 end = min(e->base + e->len, top) & PAGE_MASK;
		if (e->type != MB_MEMORY_AVAILABLE || start >= end)
			continue;
		/* kernel and frame table are contiguous: [kstart, map_at + map_size) */
		add_range_excluding(start, end, kstart, map_at + map_size);
	}
	page_alloc_set_reserve(clamp(totalram_pages / 128, 64UL, 2048UL));
	kmem_cache_init();
	pr_info("mem: %lu MiB available, frame table %llu KiB, reserve %lu pages\n",
		totalram_pages >> (20 - PAGE_SHIFT), map_size >> 10, totalreserve_pages);
}
