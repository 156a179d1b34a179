/*
 * Physical memory setup from the multiboot2 memory map: place the frame table (struct page
 * array) in free RAM above the kernel, then hand every available range to the page
 * allocator except the first megabyte (firmware), the kernel image and the frame table.
 * Only the low 4 GiB, which the boot page tables map at PAGE_OFFSET, is used.
 *
 * Before that, the top BOOT_CODE_SCRUB bytes of every range are written over once. The
 * firmware and the boot loader ran code there (SeaBIOS relocates its init code to the top
 * of RAM; GRUB loads its modules into a heap it carves from the top of the largest range).
 * Under QEMU's TCG a page that still holds translated code makes every store to it take
 * the slow path that looks for self-modifying code, until every translated byte has been
 * overwritten: a task stack or a slab page that landed there made a whole dd 7 times
 * slower (16 instead of 110-170 MiB/s). One write of each byte drops the translations for
 * good; on real hardware or KVM it costs about a millisecond.
 *
 * Under TCG that one write is the slowest part of start-up: each store to a page that still
 * holds translations takes the slow path, and 8 MiB took 16 to 35 ms, a quarter of the time
 * to the prompt (written again it takes 1 ms). So a range large enough to boot without its
 * top (MEM_DEFER_MIN) keeps the top out of the allocator at first, and mem_init_late()
 * scrubs and adds it in a thread, as Linux initialises most of its struct pages after boot
 * in pgdatinit threads (deferred_init_memmap); with two CPUs it runs beside the rest of
 * start-up. Nothing can land there before it is written over: the allocator has not seen it.
 * Smaller ranges are scrubbed at once.
 */
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/string.h>
#include <cgwb/sched.h>
#include <cgwb/platform.h>
#include <cgwb/memlayout.h>
#include "multiboot.h"

#define LOW_LIMIT 0x100000ULL
#define BOOT_CODE_SCRUB (8ULL << 20)
#define MAPPED_LIMIT (4ULL << 30)
#define MEM_DEFER_MIN (64ULL << 20)
#define MEM_DEFER_MAX 4            /* ranges; the multiboot map of a PC has one or two large ones */
#define SCRUB_CHUNK (256ULL << 10) /* written between two chances to reschedule */

static struct {
	u64 start, end;
} deferred[MEM_DEFER_MAX];
static unsigned int nr_deferred;

/* Free RAM for the allocator, its top written over first (the boot code's, see above). */
static void add_free_range(u64 start, u64 end)
{
	u64 scrub = end - start > BOOT_CODE_SCRUB ? end - BOOT_CODE_SCRUB : start;

	if (end - start >= MEM_DEFER_MIN && nr_deferred < MEM_DEFER_MAX) {
		deferred[nr_deferred].start = scrub;
		deferred[nr_deferred++].end = end;
		end = scrub;
	} else {
		memset(phys_to_virt(scrub), 0, (size_t)(end - scrub));
	}
	page_alloc_add_range(start >> PAGE_SHIFT, end >> PAGE_SHIFT);
}

static u64 deferred_bytes(void)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < nr_deferred; i++)
		sum += deferred[i].end - deferred[i].start;
	return sum;
}

static int deferred_scrub(void *unused)
{
	(void)unused;
	for (unsigned int i = 0; i < nr_deferred; i++) {
		for (u64 at = deferred[i].start; at < deferred[i].end; at += SCRUB_CHUNK) {
			memset(phys_to_virt(at), 0, (size_t)min(SCRUB_CHUNK, deferred[i].end - at));
			cond_resched();
		}
		page_alloc_add_range(deferred[i].start >> PAGE_SHIFT, deferred[i].end >> PAGE_SHIFT);
	}
	pr_info("mem: %llu KiB scrubbed and added, %lu MiB available\n", deferred_bytes() >> 10,
		totalram_pages >> (20 - PAGE_SHIFT));
	return 0;
}

void mem_init_late(void)
{
	struct task_struct *t;

	if (!nr_deferred)
		return;
	t = kthread_run(deferred_scrub, NULL, "pgdatinit0");
	if (t) {
		kthread_detach(t);
		return;
	}
	pr_warn("mem: no thread for the deferred scrub; scrubbing now\n");
	deferred_scrub(NULL);
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
	u64 kstart = virt_to_phys(__kernel_start), kend = PAGE_ALIGN(virt_to_phys(__kernel_end));
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

	page_alloc_init(phys_to_virt(map_at), nr_pfns, PAGE_OFFSET);
	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct mb_mmap_entry *e = &boot_info.mmap[i];
		u64 start = PAGE_ALIGN(max(e->base, LOW_LIMIT));
		u64 end = min(e->base + e->len, top) & PAGE_MASK;
		if (e->type != MB_MEMORY_AVAILABLE || start >= end)
			continue;
		/* kernel and frame table are contiguous: [kstart, map_at + map_size) */
		add_range_excluding(start, end, kstart, map_at + map_size);
	}
	page_alloc_set_reserve(
		clamp((totalram_pages + (deferred_bytes() >> PAGE_SHIFT)) / 128, 64UL, 2048UL));
	kmem_cache_init();
	pr_info("mem: %lu MiB available, frame table %llu KiB, reserve %lu pages, %llu KiB "
		"deferred\n",
		totalram_pages >> (20 - PAGE_SHIFT), map_size >> 10, totalreserve_pages,
		deferred_bytes() >> 10);
}
