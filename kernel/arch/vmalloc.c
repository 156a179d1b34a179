/*
 * vmalloc on x86_64: single pages mapped side by side with 4 KiB page table entries in a
 * window of the kernel's address space that nothing else uses (VMALLOC_START, between the
 * direct map and the image: <cgwb/memlayout.h>).
 *
 * Areas are kept in a list ordered by address and placed first-fit, each followed by an
 * unmapped guard page so an overrun faults instead of corrupting the next area. Page table
 * pages, once made, stay (the window is small). vmap_lock (a mutex: allocation may sleep)
 * covers the list and the page tables of the window.
 */
#include <cgwb/vmalloc.h>
#include <cgwb/list.h>
#include <cgwb/mutex.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/memlayout.h>
#include "x86.h"

#define VMALLOC_MAX_AREA (64UL << 20) /* its page array stays a small kmalloc */
#define PTE_P 0x1ULL
#define PTE_W 0x2ULL
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL

struct vm_area {
	struct list_head node; /* in vmap_areas, by address */
	u64 start;
	unsigned long nr_pages; /* mapped; a guard page follows */
	struct page **pages;
};

static LIST_HEAD(vmap_areas);
static DEFINE_MUTEX(vmap_lock);

bool is_vmalloc_addr(const void *addr)
{
	u64 a = (u64)(uintptr_t)addr;

	return a >= VMALLOC_START && a < VMALLOC_END;
}

/* The PTE for va, page tables made as needed; NULL if out of memory. vmap_lock held. */
static u64 *vmap_pte(u64 va, bool make)
{
	u64 *table = boot_pml4;

	for (int shift = 39; shift > 12; shift -= 9) {
		u64 *e = &table[(va >> shift) & 511];

		if (!(*e & PTE_P) && !make)
			return NULL;
		table = pt_next_table(e);
		if (!table)
			return NULL;
	}
	return &table[(va >> 12) & 511];
}

/* First-fit room for nr_pages and a guard page; 0 if the window is full. vmap_lock held. */
static u64 find_room(unsigned long nr_pages, struct list_head **before)
{
	u64 need = (u64)(nr_pages + 1) << PAGE_SHIFT, at = VMALLOC_START;
	struct vm_area *a;

	list_for_each_entry(a, &vmap_areas, node) {
		if (a->start - at >= need) {
			*before = &a->node;
			return at;
		}
		at = a->start + ((u64)(a->nr_pages + 1) << PAGE_SHIFT);
	}
	*before = &vmap_areas;
	return VMALLOC_END - at >= need ? at : 0;
}

/* The pages go only once no CPU can reach them through a stale TLB entry. */
static void unmap_area(struct vm_area *a, unsigned long mapped)
{
	for (unsigned long i = 0; i < mapped; i++) {
		u64 *pte = vmap_pte(a->start + ((u64)i << PAGE_SHIFT), false);

		BUG_ON(!pte || !(*pte & PTE_P));
		*pte = 0;
	}
	flush_tlb_kernel_range(a->start, a->start + ((u64)mapped << PAGE_SHIFT));
	for (unsigned long i = 0; i < mapped; i++)
		__free_page(a->pages[i]);
}

static int map_area(struct vm_area *a)
{
	for (unsigned long i = 0; i < a->nr_pages; i++) {
		u64 va = a->start + ((u64)i << PAGE_SHIFT);
		struct page *page = alloc_page(GFP_KERNEL);
		u64 *pte = page ? vmap_pte(va, true) : NULL;

		if (!pte) {
			if (page)
				__free_page(page);
			unmap_area(a, i);
			return -ENOMEM;
		}
		a->pages[i] = page;
		*pte = page_to_phys(page) | PTE_P | PTE_W | PTE_NX;
	}
	return 0;
}

void *vmalloc(size_t size)
{
	unsigned long nr_pages = (unsigned long)(PAGE_ALIGN(size) >> PAGE_SHIFT);
	struct vm_area *a;
	struct list_head *before;

	if (!size || size > VMALLOC_MAX_AREA)
		return NULL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (a)
		a->pages = kcalloc(nr_pages, sizeof(*a->pages), GFP_KERNEL);
	if (!a || !a->pages) {
		kfree(a);
		return NULL;
	}
	a->nr_pages = nr_pages;
	mutex_lock(&vmap_lock);
	a->start = find_room(nr_pages, &before);
	if (!a->start || map_area(a)) {
		mutex_unlock(&vmap_lock);
		kfree(a->pages);
		kfree(a);
		return NULL;
	}
	list_add_tail(&a->node, before);
	mutex_unlock(&vmap_lock);
	return (void *)(uintptr_t)a->start;
}

/* The area starting at addr; NULL if none does. vmap_lock held. */
static struct vm_area *find_area(u64 addr)
{
	struct vm_area *a;

	list_for_each_entry(a, &vmap_areas, node)
		if (a->start == addr)
			return a;
	return NULL;
}

void vfree(const void *addr)
{
	struct vm_area *a;

	if (!addr)
		return;
	mutex_lock(&vmap_lock);
	a = find_area((u64)(uintptr_t)addr);
	if (WARN_ON_ONCE(!a)) { /* not from vmalloc, or freed twice */
		mutex_unlock(&vmap_lock);
		return;
	}
	list_del(&a->node);
	unmap_area(a, a->nr_pages);
	mutex_unlock(&vmap_lock);
	kfree(a->pages);
	kfree(a);
}

struct page *vmalloc_to_page(const void *addr)
{
	u64 va = (u64)(uintptr_t)addr;
	u64 *pte;

	if (!is_vmalloc_addr(addr))
		return NULL;
	/* no lock: the caller owns the area, so its entries cannot change under it */
	pte = vmap_pte(va, false);
	if (!pte || !(*pte & PTE_P))
		return NULL;
	return pfn_to_page((unsigned long)((*pte & PTE_ADDR) >> PAGE_SHIFT));
}
