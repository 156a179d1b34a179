/* Object allocation: kmalloc size classes and fixed-size caches, built on the page allocator. */
#ifndef CGWB_SLAB_H
#define CGWB_SLAB_H

#include <cgwb/gfp.h>
#include <cgwb/compiler.h>

struct kmem_cache;

/**
 * kmalloc() - allocate memory for an object
 * @size: how many bytes; up to 2 KiB from a size class, larger from whole pages
 *        (physically contiguous, up to 2^MAX_ORDER pages)
 * @gfp: how: as alloc_pages()'s (__GFP_ZERO zeroes it)
 *
 * Context: any context with a gfp that does not allow blocking; process context, may
 * sleep, otherwise.
 * Return: the memory, or NULL (also for a @size of 0 or too large).
 */
void *kmalloc(size_t size, gfp_t gfp);
/**
 * kzalloc() - allocate zeroed memory for an object
 * @size: how many bytes
 * @gfp: how, as kmalloc()'s
 *
 * Context: as kmalloc().
 * Return: the memory, zeroed, or NULL.
 */
void *kzalloc(size_t size, gfp_t gfp);
/**
 * kcalloc() - allocate zeroed memory for an array
 * @n: how many elements
 * @size: the size of one
 * @gfp: how, as kmalloc()'s
 *
 * Context: as kmalloc().
 * Return: the memory, zeroed, or NULL (also when @n x @size overflows).
 */
void *kcalloc(size_t n, size_t size, gfp_t gfp);
/**
 * krealloc() - grow an allocation
 * @p: memory from kmalloc() (not vmalloc memory), or NULL
 * @new_size: the size needed
 * @gfp: how to allocate, as kmalloc()'s
 *
 * @p itself is returned when its size class holds @new_size already (it never shrinks);
 * otherwise the contents move to a new allocation and @p is freed.
 *
 * Context: as kmalloc().
 * Return: the memory, or NULL (then @p is left as it was).
 */
void *krealloc(void *p, size_t new_size, gfp_t gfp);
/**
 * kfree() - free memory from kmalloc()
 * @p: the memory, or NULL
 *
 * Also takes vmalloc memory, as kvfree() (process context then): strings that grew past a
 * page (the shell's, from kvmalloc) are handed on and freed by code that cannot tell. A
 * pointer that is no allocation is refused, logged and counted.
 *
 * Context: any context for kmalloc memory; never sleeps then.
 */
void kfree(const void *p);
/* Usable size of an allocation (its size class). */
size_t ksize(const void *p);

/**
 * kmem_cache_create() - create a cache of fixed-size objects
 * @name: its name in /proc/slabinfo, static
 * @size: the objects' size, at most 2 KiB
 * @align: their alignment
 *
 * Context: process context; may sleep.
 * Return: the cache, or NULL (no memory, or a @size of 0 or too large).
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align);
void kmem_cache_destroy(struct kmem_cache *cache);
void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp);
/**
 * kmem_cache_zalloc() - allocate a zeroed object from a cache
 * @cache: the cache
 * @gfp: how, as kmalloc()'s
 *
 * Context: as kmalloc().
 * Return: the object, zeroed, or NULL.
 */
void *kmem_cache_zalloc(struct kmem_cache *cache, gfp_t gfp);
/**
 * kmem_cache_free() - give an object back to its cache
 * @cache: the cache it came from
 * @obj: the object, or NULL; one not from @cache is refused, logged and counted
 *
 * Context: any context; never sleeps.
 */
void kmem_cache_free(struct kmem_cache *cache, void *obj);

struct kmem_cache_info {
	const char *name;
	size_t object_size;
	unsigned long active_objs, total_objs, pages;
};
/**
 * kmem_cache_for_each() - describe each cache (/proc/slabinfo, free)
 * @fn: called with each cache's figures and @arg; it runs under the slab lock with
 *      interrupts off, so it must not allocate or sleep
 * @arg: passed to @fn
 *
 * Context: any context.
 */
void kmem_cache_for_each(void (*fn)(const struct kmem_cache_info *, void *), void *arg);
/**
 * slab_pages() - the pages the slab allocator holds (free, /proc/meminfo)
 *
 * Context: any context; never sleeps.
 * Return: the caches' pages and the large kmalloc() blocks', in pages.
 */
unsigned long slab_pages(void);
/**
 * kmem_cache_init() - set up the kmalloc size classes
 *
 * Context: platform setup, once, after the page allocator and before any kmalloc().
 */
void kmem_cache_init(void);
/* Frees refused as invalid (double free, foreign pointer): each is logged and counted. */
unsigned long slab_bad_free_count(void);

#endif
