/*
 * Object allocator. A kmem_cache carves single pages into equal objects (at least 64 bytes,
 * so a page holds at most 64 and a 64-bit bitmap in struct page records which are in use:
 * double frees and pointers into the middle of an object are caught). kmalloc uses caches
 * of 64..2048 bytes and whole pages above that. Empty slabs go back to the page allocator.
 */
#include <cgwb/slab.h>
#include <cgwb/mm.h>
#include <cgwb/spinlock.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/kasan.h>
#include <cgwb/vmalloc.h>

#define MIN_OBJECT 64
#define KMALLOC_MAX_CACHE 2048
#define NR_KMALLOC_CACHES 6 /* 64 128 256 512 1024 2048 */

struct kmem_cache {
	char name[24];
	size_t object_size;   /* as asked */
	size_t size;          /* slot size */
	unsigned int objects; /* per page */
	struct list_head partial, full;
	unsigned long nr_pages, active;
	struct list_head node;
};

static struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
static LIST_HEAD(all_caches);
static DEFINE_SPINLOCK(slab_lock);
static unsigned long large_pages; /* pages of kmalloc allocations above 2048 bytes */
static unsigned long slab_bad_frees;

static void cache_init(struct kmem_cache *c, const char *name, size_t size, size_t align)
{
	size_t slot = size < MIN_OBJECT ? MIN_OBJECT : size;

	if (align < 8)
		align = 8;
	slot = ALIGN(slot, align);
	memset(c, 0, sizeof(*c));
	strlcpy(c->name, name, sizeof(c->name));
	c->object_size = size;
	c->size = slot;
	c->objects = (unsigned int)(PAGE_SIZE / slot);
	INIT_LIST_HEAD(&c->partial);
	INIT_LIST_HEAD(&c->full);
	list_add_tail(&c->node, &all_caches);
}

void kmem_cache_init(void)
{
	static const char *names[NR_KMALLOC_CACHES] = {
		"kmalloc-64",  "kmalloc-128", "kmalloc-256",
		"kmalloc-512", "kmalloc-1k",  "kmalloc-2k",
	};
	INIT_LIST_HEAD(&all_caches);
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		cache_init(&kmalloc_caches[i], names[i], (size_t)MIN_OBJECT << i, 8);
	large_pages = 0;
	slab_bad_frees = 0;
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align)
{
	struct kmem_cache *c;
	unsigned long flags;

	if (!size || size > KMALLOC_MAX_CACHE)
		return NULL;
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	spin_lock_irqsave(&slab_lock, flags);
	cache_init(c, name, size, align);
	spin_unlock_irqrestore(&slab_lock, flags);
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long flags;

	if (!c)
		return;
	spin_lock_irqsave(&slab_lock, flags);
	if (c->active)
		pr_err("slab %s: destroyed with %lu objects in use\n", c->name, c->active);
	list_del(&c->node);
	spin_unlock_irqrestore(&slab_lock, flags);
	kfree(c);
}

static void *obj_at(struct page *page, struct kmem_cache *c, unsigned int i)
{
	return (char *)page_address(page) + (size_t)i * c->size;
}

static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page = alloc_page(gfp & ~__GFP_ZERO);

	if (!page)
		return NULL;
	SetPageSlab(page);
	page->slab_cache = c;
	page->slab_used = 0;
	page->freelist = NULL;
	kasan_poison(page_address(page), PAGE_SIZE);
	c->nr_pages++;
	return page;
}

static u64 full_mask(const struct kmem_cache *c)
{
	return c->objects == 64 ? ~0ULL : (1ULL << c->objects) - 1;
}

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&slab_lock, flags);
	page = list_first_entry_or_null(&c->partial, struct page, lru);
	if (!page) {
		/* the page allocator may sleep for reclaim: not under the slab lock */
		spin_unlock_irqrestore(&slab_lock, flags);
		page = new_slab(c, gfp);
		if (!page)
			return NULL;
		spin_lock_irqsave(&slab_lock, flags);
		list_add(&page->lru, &c->partial);
	}
	unsigned int i = (unsigned int)__builtin_ctzll(~page->slab_used);
	page->slab_used |= 1ULL << i;
	c->active++;
	if (page->slab_used == full_mask(c))
		list_move(&page->lru, &c->full);
	spin_unlock_irqrestore(&slab_lock, flags);

	void *obj = obj_at(page, c, i);
	kasan_unpoison(obj, c->object_size);
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->object_size);
	return obj;
}

void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp)
{
	return kmem_cache_alloc(c, gfp | __GFP_ZERO);
}

static void bad_free(const void *obj, const char *why)
{
	slab_bad_frees++;
	pr_err("BUG: slab: bad free of %p: %s\n", obj, why);
	WARN_ON(1);
}

static void slab_free(struct kmem_cache *c, struct page *page, const void *obj)
{
	size_t off = (size_t)((const char *)obj - (const char *)page_address(page));
	unsigned int i = (unsigned int)(off / c->size);
	unsigned long flags;
	bool empty;

	if (off % c->size || i >= c->objects) {
		bad_free(obj, "not the start of an object");
		return;
	}
	spin_lock_irqsave(&slab_lock, flags);
	if (!(page->slab_used & (1ULL << i))) {
		spin_unlock_irqrestore(&slab_lock, flags);
		bad_free(obj, "double free");
		return;
	}
	/* poisoned before the slot is free: another CPU may take it once the lock is gone */
	kasan_poison((void *)obj, c->size);
	if (page->slab_used == full_mask(c))
		list_move(&page->lru, &c->partial);
	page->slab_used &= ~(1ULL << i);
	c->active--;
	empty = !page->slab_used;
	if (empty) {
		list_del_init(&page->lru);
		c->nr_pages--;
	}
	spin_unlock_irqrestore(&slab_lock, flags);

	if (empty) {
		ClearPageSlab(page);
		page->slab_cache = NULL;
		page->freelist = NULL;
		page->slab_used = 0;
		__free_page(page);
	}
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct page *page;

	if (!obj)
		return;
	page = virt_to_page(obj);
	if (!PageSlab(page) || page->slab_cache != c) {
		bad_free(obj, "not an object of this cache");
		return;
	}
	slab_free(c, page, obj);
}

static struct kmem_cache *kmalloc_cache(size_t size)
{
	for (int i = 0; i < NR_KMALLOC_CACHES; i++)
		if (size <= kmalloc_caches[i].size)
			return &kmalloc_caches[i];
	return NULL;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c;

	if (!size)
		return NULL;
	c = kmalloc_cache(size);
	if (c)
		return kmem_cache_alloc(c, gfp);
	unsigned int order = get_order(size);
	if (order > MAX_ORDER)
		return NULL;
	struct page *page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	SetPageLargeKmalloc(page); /* kfree() and ksize() know it by this */
	__atomic_add_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	return page_address(page);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

size_t ksize(const void *p)
{
	struct page *page;

	if (!p)
		return 0;
	page = virt_to_page(p);
	if (PageSlab(page))
		return page->slab_cache->size;
	return PAGE_SIZE << compound_order(page);
}

void *krealloc(void *p, size_t new_size, gfp_t gfp)
{
	size_t old = ksize(p);
	void *n;

	if (p && new_size <= old)
		return p;
	n = kmalloc(new_size, gfp);
	if (n && p) {
		memcpy(n, p, old);
		kfree(p);
	}
	return n;
}

void kfree(const void *p)
{
	struct page *page;

	if (!p)
		return;
	if (is_vmalloc_addr(p)) { /* as kvfree(): see <cgwb/slab.h> */
		vfree(p);
		return;
	}
	page = virt_to_page(p);
	if (PageSlab(page)) {
		slab_free(page->slab_cache, page, p);
		return;
	}
	if (!PageLargeKmalloc(page) || page_address(page) != p) {
		bad_free(p, "not a kmalloc allocation");
		return;
	}
	unsigned int order = compound_order(page);
	__atomic_sub_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	ClearPageLargeKmalloc(page);
	__free_pages(page, order);
}

unsigned long slab_pages(void)
{
	unsigned long n = large_pages;
	struct kmem_cache *c;
	unsigned long flags;

	spin_lock_irqsave(&slab_lock, flags);
	list_for_each_entry(c, &all_caches, node)
		n += c->nr_pages;
	spin_unlock_irqrestore(&slab_lock, flags);
	return n;
}

unsigned long slab_bad_free_count(void)
{
	return slab_bad_frees;
}

void kmem_cache_for_each(void (*fn)(const struct kmem_cache_info *, void *), void *arg)
{
	struct kmem_cache *c;
	unsigned long flags;

	spin_lock_irqsave(&slab_lock, flags);
	list_for_each_entry(c, &all_caches, node) {
		struct kmem_cache_info info = {
			.name = c->name,
			.object_size = c->object_size,
			.active_objs = c->active,
			.total_objs = c->nr_pages * c->objects,
			.pages = c->nr_pages,
		};
		fn(&info, arg);
	}
	spin_unlock_irqrestore(&slab_lock, flags);
}

/*
 * A large buffer that does not need to be physically contiguous: a contiguous block if one
 * is at hand without reclaim, else single pages mapped together (vmalloc).
 */
void *kvmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (size <= PAGE_SIZE)
		return kmalloc(size, gfp);
	p = kmalloc(size, (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN);
	if (!p) {
		p = vmalloc(size);
		if (p && (gfp & __GFP_ZERO))
			memset(p, 0, size);
	}
	return p;
}

void kvfree(const void *addr)
{
	if (is_vmalloc_addr(addr))
		vfree(addr);
	else
		kfree(addr);
}
