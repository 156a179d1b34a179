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

/* size bytes (rounded up to pages), page-aligned, not zeroed; NULL if out of memory. */
void *vmalloc(size_t size);
void vfree(const void *addr);
bool is_vmalloc_addr(const void *addr);
struct page *vmalloc_to_page(const void *addr);

/* kmalloc when a contiguous block is at hand, else vmalloc; kvfree takes either. */
void *kvmalloc(size_t size, gfp_t gfp);
void kvfree(const void *addr);

/* The page holding addr, for a direct-mapped or a vmalloc address. */
static inline struct page *kvaddr_to_page(const void *addr)
{
	return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) : virt_to_page(addr);
}

#endif
