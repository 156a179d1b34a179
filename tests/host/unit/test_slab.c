/*
 * kmalloc and kmem caches (mm/slab.c) on the real page allocator: sizes, alignment, zeroing,
 * realloc, refused frees, and pages going back when slabs empty.
 */
#include <stdlib.h>
#include <criterion/criterion.h>
#include <cgwb/slab.h>
#include <cgwb/mm.h>
#include <cgwb/bug.h>
#include "host.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

static unsigned long free_at_start, slab_at_start;

static void setup(void)
{
	host_platform_init(32 << 20);
	free_at_start = nr_free_pages();
	slab_at_start = slab_pages();
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(slab, .init = setup, .fini = teardown);

static void assert_all_memory_back(void)
{
	cr_assert_eq(nr_free_pages(), free_at_start, "%lu pages free, %lu at the start",
		     nr_free_pages(), free_at_start);
	cr_assert_eq(slab_pages(), slab_at_start);
	cr_assert_eq(page_alloc_check(), 0);
}

static const size_t sizes[] = {
	1,    7,    8,    9,    24,   63,   64,   65,    100,   127,   128,   129,
	255,  256,  257,  511,  512,  513,  1000, 1023,  1024,  1025,  2047,  2048,
	2049, 3000, 4095, 4096, 4097, 8191, 8192, 12000, 16384, 32768, 65535, 65536,
};

#define PER_SIZE 3

struct alloc {
	unsigned char *p;
	size_t size;
};

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct alloc *)a)->p;
	uintptr_t y = (uintptr_t)((const struct alloc *)b)->p;

	return x < y ? -1 : x > y;
}

Test(slab, kmalloc_sizes_are_distinct_writable_and_aligned)
{
	enum { N = ARRAY_SIZE(sizes) * PER_SIZE };
	struct alloc a[N];
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (int k = 0; k < PER_SIZE; k++, n++) {
			a[n].size = sizes[i];
			a[n].p = kmalloc(sizes[i], GFP_KERNEL);
			cr_assert_not_null(a[n].p, "kmalloc(%zu)", sizes[i]);
			size_t usable = ksize(a[n].p);
			cr_assert_geq(usable, sizes[i]);
			/* natural alignment: each size class is a power of two */
			cr_assert(is_power_of_2(usable));
			cr_assert(IS_ALIGNED((uintptr_t)a[n].p, usable), "kmalloc(%zu) = %p",
				  sizes[i], (void *)a[n].p);
			memset(a[n].p, (int)(n & 0xff), sizes[i]);
		}
	}
	/* nothing overlaps, and nothing was overwritten by a later allocation */
	for (int i = 0; i < N; i++)
		for (size_t j = 0; j < a[i].size; j++)
			cr_assert_eq(a[i].p[j], i & 0xff, "allocation %d byte %zu", i, j);
	qsort(a, N, sizeof(a[0]), by_address);
	for (int i = 1; i < N; i++)
		cr_assert_geq((uintptr_t)a[i].p, (uintptr_t)a[i - 1].p + a[i - 1].size);

	for (int i = 0; i < N; i++)
		kfree(a[i].p);
	cr_assert_eq(slab_bad_free_count(), 0);
	assert_all_memory_back();
}

Test(slab, kmalloc_limits)
{
	cr_assert_null(kmalloc(0, GFP_KERNEL));
	cr_assert_null(kmalloc((PAGE_SIZE << MAX_ORDER) + 1, GFP_KERNEL));
	cr_assert_null(kcalloc(SIZE_MAX / 2, 4, GFP_KERNEL), "n * size overflows");
	void *big = kmalloc(PAGE_SIZE << MAX_ORDER, GFP_KERNEL);
	cr_assert_not_null(big);
	kfree(big);
	kfree(NULL);
	assert_all_memory_back();
}

Test(slab, ksize_is_the_size_class)
{
	static const struct {
		size_t ask, got;
	} classes[] = {
		{ 1, 64 },      { 64, 64 },     { 65, 128 },    { 100, 128 },
		{ 1500, 2048 }, { 2049, 4096 }, { 4097, 8192 }, { 20000, 32768 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		void *p = kmalloc(classes[i].ask, GFP_KERNEL);
		cr_assert_eq(ksize(p), classes[i].got, "ksize(kmalloc(%zu))", classes[i].ask);
		kfree(p);
	}
	cr_assert_eq(ksize(NULL), 0);
}

Test(slab, kzalloc_zeroes_recycled_memory)
{
	static const size_t zsizes[] = { 40, 256, 2048, 10000 };

	for (size_t i = 0; i < ARRAY_SIZE(zsizes); i++) {
		unsigned char *p = kmalloc(zsizes[i], GFP_KERNEL), *q;

		memset(p, 0xff, zsizes[i]);
		kfree(p);
		q = kzalloc(zsizes[i], GFP_KERNEL);
		cr_assert_eq(q, p, "the same slot comes back (lowest free slot first)");
		for (size_t j = 0; j < zsizes[i]; j++)
			cr_assert_eq(q[j], 0, "size %zu byte %zu", zsizes[i], j);
		kfree(q);
	}
	unsigned int *arr = kcalloc(100, sizeof(*arr), GFP_KERNEL);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(arr[i], 0);
	kfree(arr);
	assert_all_memory_back();
}

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 3);
}

static void check(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(p[i], (unsigned char)(i * 7 + 3), "byte %zu", i);
}

Test(slab, krealloc_keeps_the_contents)
{
	unsigned char *p = krealloc(NULL, 50, GFP_KERNEL), *q;

	cr_assert_not_null(p);
	fill(p, 50);
	q = krealloc(p, 60, GFP_KERNEL);
	cr_assert_eq(q, p, "fits its size class: stays in place");
	q = krealloc(p, 500, GFP_KERNEL);
	cr_assert_neq(q, p);
	check(q, 50);
	fill(q, 500);
	p = krealloc(q, 20000, GFP_KERNEL);
	check(p, 500);
	kfree(p);
	cr_assert_eq(slab_bad_free_count(), 0);
	assert_all_memory_back();
}

static unsigned long active_in(const char *name);

Test(slab, double_free_and_interior_pointers_are_refused)
{
	/* a fresh cache: both objects share its first page, which "keep" keeps alive */
	struct kmem_cache *c = kmem_cache_create("dbl", 128, 0);
	unsigned char *keep = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned char *big = kmalloc(10000, GFP_KERNEL);

	kfree(p);
	cr_assert_eq(active_in("dbl"), 1);
	kfree(p);
	cr_assert_eq(slab_bad_free_count(), 1);
	cr_assert(host_log_contains("double free"));
	cr_assert_eq(active_in("dbl"), 1, "the cache did not count it twice");

	kfree(keep + 8);
	cr_assert_eq(slab_bad_free_count(), 2);
	cr_assert(host_log_contains("not the start of an object"));
	kfree(big + 100);
	cr_assert_eq(slab_bad_free_count(), 3);
	kfree(big);
	kfree(big);
	cr_assert_eq(slab_bad_free_count(), 4);

	/* the refused frees changed nothing: the real ones work and everything comes back */
	kfree(keep);
	cr_assert_eq(active_in("dbl"), 0);
	kmem_cache_destroy(c);
	assert_all_memory_back();
	cr_assert_eq(warn_count, 4);
}

struct cache_count {
	const char *name;
	struct kmem_cache_info info;
	bool found;
};

static void count_one(const struct kmem_cache_info *info, void *arg)
{
	struct cache_count *c = arg;

	if (!strcmp(info->name, c->name)) {
		c->info = *info;
		c->found = true;
	}
}

static struct kmem_cache_info cache_info(const char *name)
{
	struct cache_count c = { .name = name };

	kmem_cache_for_each(count_one, &c);
	cr_assert(c.found, "no cache %s", name);
	return c.info;
}

static unsigned long active_in(const char *name)
{
	return cache_info(name).active_objs;
}

Test(slab, caches_of_odd_sizes)
{
	static const struct {
		size_t size, align;
	} shapes[] = {
		{ 3, 0 }, { 24, 0 }, { 100, 0 }, { 200, 32 }, { 1000, 64 }, { 2048, 0 },
	};
	enum { OBJS = 150 };

	for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
		struct kmem_cache *c = kmem_cache_create("odd", shapes[s].size, shapes[s].align);
		unsigned char *obj[OBJS];
		size_t align = shapes[s].align > 8 ? shapes[s].align : 8;

		cr_assert_not_null(c);
		for (int i = 0; i < OBJS; i++) {
			obj[i] = i % 2 ? kmem_cache_alloc(c, GFP_KERNEL) :
					 kmem_cache_zalloc(c, GFP_KERNEL);
			cr_assert_not_null(obj[i]);
			cr_assert(IS_ALIGNED((uintptr_t)obj[i], align), "size %zu align %zu: %p",
				  shapes[s].size, align, (void *)obj[i]);
			if (i % 2 == 0)
				for (size_t j = 0; j < shapes[s].size; j++)
					cr_assert_eq(obj[i][j], 0);
			memset(obj[i], i, shapes[s].size);
		}
		for (int i = 0; i < OBJS; i++)
			for (size_t j = 0; j < shapes[s].size; j++)
				cr_assert_eq(obj[i][j], (unsigned char)i, "object %d overwritten", i);
		cr_assert_eq(active_in("odd"), OBJS);
		for (int i = 0; i < OBJS; i++)
			kmem_cache_free(c, obj[i]);
		cr_assert_eq(active_in("odd"), 0);
		kmem_cache_destroy(c);
	}
	cr_assert_null(kmem_cache_create("zero", 0, 0));
	cr_assert_null(kmem_cache_create("huge", 4096, 0));
	cr_assert_eq(slab_bad_free_count(), 0);
	assert_all_memory_back();
}

Test(slab, freeing_into_the_wrong_cache_is_refused)
{
	struct kmem_cache *a = kmem_cache_create("a", 40, 0), *b = kmem_cache_create("b", 40, 0);
	void *obj = kmem_cache_alloc(a, GFP_KERNEL);

	kmem_cache_free(b, obj);
	cr_assert_eq(slab_bad_free_count(), 1);
	cr_assert_eq(active_in("a"), 1);
	kmem_cache_free(a, obj);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	assert_all_memory_back();
}

Test(slab, empty_slabs_go_back_to_the_page_allocator)
{
	enum { N = 1000 };
	void **objs = calloc(N, sizeof(*objs));

	for (int i = 0; i < N; i++)
		objs[i] = kmalloc(128, GFP_KERNEL);
	cr_assert_geq(free_at_start - nr_free_pages(), N / (PAGE_SIZE / 128));
	cr_assert_geq(slab_pages() - slab_at_start, N / (PAGE_SIZE / 128));
	for (int i = 0; i < N; i++)
		kfree(objs[i]);
	free(objs);
	assert_all_memory_back();
}

Test(slab, kmem_cache_for_each_reports_counts)
{
	struct kmem_cache *c = kmem_cache_create("counted", 200, 0); /* 20 per page */
	void *obj[25];
	struct kmem_cache_info info;

	for (int i = 0; i < 25; i++)
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL);
	info = cache_info("counted");
	cr_assert_eq(info.object_size, 200);
	cr_assert_eq(info.active_objs, 25);
	cr_assert_eq(info.pages, 2);
	cr_assert_eq(info.total_objs, 40);
	for (int i = 0; i < 20; i++)
		kmem_cache_free(c, obj[i]);
	info = cache_info("counted");
	cr_assert_eq(info.active_objs, 5);
	cr_assert_eq(info.pages, 1, "the emptied first page went back");
	for (int i = 20; i < 25; i++)
		kmem_cache_free(c, obj[i]);
	cr_assert_eq(cache_info("counted").pages, 0);
	cr_assert_eq(cache_info("kmalloc-64").object_size, 64);
	kmem_cache_destroy(c);
	assert_all_memory_back();
}

#ifdef __SANITIZE_ADDRESS__
Test(slab, asan_sees_freed_objects_and_slack)
{
	struct kmem_cache *c = kmem_cache_create("slack", 24, 0); /* 64-byte slots */
	unsigned char *obj = kmem_cache_alloc(c, GFP_KERNEL),
		      *other = kmem_cache_alloc(c, GFP_KERNEL);

	cr_assert_not(__asan_region_is_poisoned(obj, 24));
	cr_assert(__asan_address_is_poisoned(obj + 24), "the slot's slack is off limits");
	kmem_cache_free(c, obj);
	cr_assert(__asan_address_is_poisoned(obj), "a freed object is off limits");
	kmem_cache_free(c, other);
	kmem_cache_destroy(c);
}
#endif
