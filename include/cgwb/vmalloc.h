/*
 * Virtually contiguous memory: large buffers (a 1 MiB dd record, a script file) built from
 * single pages mapped side by side, so they do not need a free block of 2^order contiguous
 * pages, which a small or fragmented machine may not have. As Linux's vmalloc: the pages
 * are not physically contiguous, so code that needs a page of such a buffer (to build a bio)
 * asks kvaddr_to_page() instead of virt_to_page().
 */
#ifndef CGWB_VMALLOC_H
#define CGWB_VMALLOC_H

#include <cgwb/mm.h>

/**
 * vmalloc() - allocate virtually contiguous memory
 * @size: how many bytes (rounded up to pages), at most 64 MiB
 *
 * Single pages, allocated as GFP_KERNEL and mapped side by side.
 *
 * Context: process context; may sleep.
 * Return: the memory, page-aligned, not zeroed; or NULL if out of memory (or of address
 * space), or for a @size of 0 or too large.
 */
void *vmalloc(size_t size);
/**
 * vfree() - free memory from vmalloc()
 * @addr: its address, or NULL; one that is not from vmalloc() is warned about once
 *
 * The mapping goes (with a TLB shootdown of the other CPUs), then the pages.
 *
 * Context: process context; may sleep.
 */
void vfree(const void *addr);
/**
 * is_vmalloc_addr() - is an address in the vmalloc area?
 * @addr: the address
 *
 * Context: any context.
 * Return: true if it is.
 */
bool is_vmalloc_addr(const void *addr);
/**
 * vmalloc_to_page() - the page behind a vmalloc address
 * @addr: the address, in an area the caller owns (its entries cannot change under it)
 *
 * Context: any context; never sleeps.
 * Return: the page, or NULL if @addr is not a mapped vmalloc address.
 */
struct page *vmalloc_to_page(const void *addr);

/**
 * kvmalloc() - allocate memory that need not be physically contiguous
 * @size: how many bytes
 * @gfp: how: as kmalloc()'s for a page or less; a larger block is tried without reclaim,
 *       then vmalloc() takes over, which allocates as GFP_KERNEL whatever @gfp says
 *
 * Context: process context; may sleep.
 * Return: the memory (zeroed if @gfp has __GFP_ZERO), or NULL. kvfree() frees it.
 */
void *kvmalloc(size_t size, gfp_t gfp);
/**
 * kvfree() - free memory from kvmalloc(), kmalloc() or vmalloc()
 * @addr: the memory, or NULL
 *
 * Context: as vfree() for vmalloc memory, as kfree() otherwise.
 */
void kvfree(const void *addr);

/* The page holding addr, for a direct-mapped or a vmalloc address. */
static inline struct page *kvaddr_to_page(const void *addr)
{
	return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) : virt_to_page(addr);
}

#endif
