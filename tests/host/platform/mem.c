/*
 * Physical memory for host runs: one arena from libc plays the machine's RAM, with the
 * arena's start as physical address 0, managed by the real buddy allocator (mm/page_alloc.c)
 * and slab (mm/slab.c). So kmalloc in a host binary is the kernel's own, bugs included.
 */
#include <stdlib.h>
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include <cgwb/kasan.h>
#include <cgwb/bug.h>
#include "host_internal.h"

/* The kernel's direct map is the identity: align like physical memory, to the largest block. */
#define ARENA_ALIGN (PAGE_SIZE << MAX_ORDER)
#define MIN_ARENA_PAGES 256 /* 1 MiB: well above the 64-page minimum reserve */

static void *arena;
static size_t arena_size;
static struct page *frames;

void host_mem_init(size_t mem_bytes)
{
	unsigned long nr_pfns = (unsigned long)(mem_bytes >> PAGE_SHIFT);

	if (nr_pfns < MIN_ARENA_PAGES)
		panic("host: %zu bytes of memory is too little (at least %d pages)", mem_bytes,
		      MIN_ARENA_PAGES);
	/* aligned_alloc wants a multiple of the alignment; only nr_pfns pages are used */
	arena_size = round_up((size_t)nr_pfns << PAGE_SHIFT, ARENA_ALIGN);
	arena = aligned_alloc(ARENA_ALIGN, arena_size);
	frames = calloc(nr_pfns, sizeof(*frames));
	if (!arena || !frames)
		panic("host: cannot allocate %zu bytes of memory", mem_bytes);

	page_alloc_init(frames, nr_pfns, (uintptr_t)arena);
	/* pfn 0 is physical address 0: keep it out so no page is mistaken for NULL */
	page_alloc_add_range(1, nr_pfns);
	/* as kernel/platform/meminit.c */
	page_alloc_set_reserve(clamp(totalram_pages / 128, 64UL, 2048UL));
	kmem_cache_init();
}

bool host_mem_is_freed(const void *p)
{
#ifdef __SANITIZE_ADDRESS__
	return __asan_address_is_poisoned(p);
#else
	(void)p;
	BUG(); /* only the AddressSanitizer builds can tell */
#endif
}

void host_mem_exit(void)
{
	if (!arena)
		return;
	/* the allocators poison what they hold free; libc must get it back clean */
	kasan_unpoison(arena, arena_size);
	free(arena);
	free(frames);
	arena = NULL;
	frames = NULL;
	mem_map = NULL;
	max_pfn = 0;
}

/*
 * vmalloc on the host: the arena is plentiful and a test has no page tables to map into,
 * so a "virtually contiguous" buffer is a contiguous one; kvfree tells none apart.
 */
void *vmalloc(size_t size)
{
	return kmalloc(size, GFP_KERNEL);
}

void vfree(const void *addr)
{
	kfree(addr);
}

bool is_vmalloc_addr(const void *addr)
{
	return false;
}

struct page *vmalloc_to_page(const void *addr)
{
	return NULL;
}
