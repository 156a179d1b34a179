/* Object allocation: kmalloc size classes and fixed-size caches, built on the page allocator. */
#ifndef CGWB_SLAB_H
#define CGWB_SLAB_H

#include <cgwb/gfp.h>
#include <cgwb/compiler.h>

struct kmem_cache;

void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
void *krealloc(void *p, size_t new_size, gfp_t gfp);
/*
 * Also takes vmalloc memory, as kvfree() (process context then): strings that grew past a
 * page (the shell's, from kvmalloc) are handed on and freed by code that cannot tell.
 */
void kfree(const void *p);
/* Usable size of an allocation (its size class). */
size_t ksize(const void *p);

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align);
void kmem_cache_destroy(struct kmem_cache *cache);
void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp);
void *kmem_cache_zalloc(struct kmem_cache *cache, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *cache, void *obj);

struct kmem_cache_info {
	const char *name;
	size_t object_size;
	unsigned long active_objs, total_objs, pages;
};
/* Walk the caches (for /proc/slabinfo and the free command). */
void kmem_cache_for_each(void (*fn)(const struct kmem_cache_info *, void *), void *arg);
/* Pages held by the slab allocator (kernel memory, for free and /proc/meminfo). */
unsigned long slab_pages(void);
void kmem_cache_init(void);
/* Frees refused as invalid (double free, foreign pointer): each is logged and counted. */
unsigned long slab_bad_free_count(void);

#endif
