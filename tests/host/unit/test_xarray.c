/* The page-cache index: the radix tree with marks, checked against a plain model. */
#include <criterion/criterion.h>
#include <cgwb/xarray.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/sched.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(64 << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(xarray, .init = setup, .fini = teardown);

/* Distinct aligned fake entries: the tree never dereferences them. */
static void *E(unsigned long i)
{
	return (void *)((i + 1) << 4);
}

Test(xarray, single_entry_at_zero_uses_no_node)
{
	struct xarray xa;
	xa_init(&xa);
	cr_assert_eq(xa_insert(&xa, 0, E(0), GFP_KERNEL), 0);
	cr_assert_eq(xa.nr_nodes, 0);
	cr_assert_eq(xa_load(&xa, 0), E(0));
	cr_assert_null(xa_load(&xa, 1));
	cr_assert_eq(xa_insert(&xa, 0, E(1), GFP_KERNEL), -EEXIST);
	xa_set_mark(&xa, 0, XA_MARK_1);
	cr_assert(xa_get_mark(&xa, 0, XA_MARK_1));
	cr_assert(xa_marked(&xa, XA_MARK_1));
	/* growing keeps the mark of the entry that moves down */
	cr_assert_eq(xa_insert(&xa, 1000, E(1000), GFP_KERNEL), 0);
	cr_assert(xa_get_mark(&xa, 0, XA_MARK_1));
	cr_assert_not(xa_get_mark(&xa, 1000, XA_MARK_1));
	cr_assert_eq(xa_check(&xa), 0);
	cr_assert_eq(xa_erase(&xa, 1000), E(1000));
	/* shrinks back to a bare head entry, mark preserved */
	cr_assert_eq(xa.nr_nodes, 0);
	cr_assert(xa_get_mark(&xa, 0, XA_MARK_1));
	cr_assert_eq(xa_erase(&xa, 0), E(0));
	cr_assert(xa_empty(&xa));
}

Test(xarray, find_walks_marks_in_order)
{
	struct xarray xa;
	unsigned long idx;
	xa_init(&xa);
	const unsigned long keys[] = { 3, 64, 65, 4095, 4096, 262143, 1UL << 30, ~0UL };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		cr_assert_eq(xa_insert(&xa, keys[i], E(i), GFP_KERNEL), 0);
	xa_set_mark(&xa, 65, XA_MARK_0);
	xa_set_mark(&xa, 1UL << 30, XA_MARK_0);
	xa_set_mark(&xa, ~0UL, XA_MARK_0);
	cr_assert_eq(xa_check(&xa), 0);

	idx = 0;
	cr_assert_eq(xa_find(&xa, &idx, ~0UL, XA_MARK_0), E(2));
	cr_assert_eq(idx, 65);
	idx = 66;
	cr_assert_eq(xa_find(&xa, &idx, ~0UL, XA_MARK_0), E(6));
	cr_assert_eq(idx, 1UL << 30);
	idx = (1UL << 30) + 1;
	cr_assert_eq(xa_find(&xa, &idx, ~0UL, XA_MARK_0), E(7));
	cr_assert_eq(idx, ~0UL);
	idx = 66;
	cr_assert_null(xa_find(&xa, &idx, 1UL << 29, XA_MARK_0));

	/* every present entry, in order */
	unsigned long i;
	void *entry;
	size_t n = 0;
	xa_for_each_range(&xa, i, entry, 0, ~0UL, XA_PRESENT)
	{
		cr_assert_eq(i, keys[n]);
		cr_assert_eq(entry, E(n));
		n++;
	}
	cr_assert_eq(n, ARRAY_SIZE(keys));
}

Test(xarray, random_operations_match_a_model)
{
	enum { N = 5000, SPACE = 20000 };
	static void *model[SPACE];
	static unsigned char marks[SPACE];
	struct xarray xa;
	unsigned long seed = 12345;
	xa_init(&xa);

	for (int step = 0; step < 60000; step++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned long idx = (seed >> 33) % SPACE;
		unsigned int op = (seed >> 20) % 6;
		xa_mark_t m = (seed >> 10) % XA_MAX_MARKS;
		switch (op) {
		case 0:
		case 1: {
			int err = xa_insert(&xa, idx, E(idx), GFP_KERNEL);
			cr_assert_eq(err, model[idx] ? -EEXIST : 0);
			if (!model[idx]) {
				model[idx] = E(idx);
				marks[idx] = 0;
			}
			break;
		}
		case 2:
			cr_assert_eq(xa_erase(&xa, idx), model[idx]);
			model[idx] = NULL;
			marks[idx] = 0;
			break;
		case 3:
			xa_set_mark(&xa, idx, m);
			if (model[idx])
				marks[idx] |= 1U << m;
			break;
		case 4:
			xa_clear_mark(&xa, idx, m);
			marks[idx] &= ~(1U << m);
			break;
		case 5: {
			unsigned long found = idx, expect = idx;
			while (expect < SPACE && !(model[expect] && (marks[expect] & (1U << m))))
				expect++;
			void *e = xa_find(&xa, &found, SPACE - 1, m);
			if (expect == SPACE) {
				cr_assert_null(e, "step %d: found %lu, expected none", step, found);
			} else {
				cr_assert_eq(found, expect, "step %d: found %lu expected %lu", step,
					     found, expect);
				cr_assert_eq(e, model[expect]);
			}
			break;
		}
		}
		if (step % 5000 == 0)
			cr_assert_eq(xa_check(&xa), 0, "step %d", step);
	}
	cr_assert_eq(xa_check(&xa), 0);
	for (unsigned long i = 0; i < SPACE; i++) {
		cr_assert_eq(xa_load(&xa, i), model[i]);
		for (xa_mark_t mk = 0; mk < XA_MAX_MARKS; mk++)
			cr_assert_eq(xa_get_mark(&xa, i, mk), !!(marks[i] & (1U << mk)));
		xa_erase(&xa, i);
	}
	cr_assert(xa_empty(&xa));
	cr_assert_eq(xa.nr_nodes, 0);
	(void)N;
}

static struct xa_node *node_of(void *entry)
{
	return (struct xa_node *)((uintptr_t)entry & ~3UL);
}

/*
 * Lockless readers (xa_load under RCU): a node leaves the tree at once but is freed only a
 * grace period later, so a reader on another CPU that reached it before the erase still
 * reads its slots. CPU 1 is that reader, parked in its read-side section.
 */
Test(xarray, erased_nodes_are_freed_a_grace_period_later)
{
	struct xarray xa;

	host_set_nr_cpus(2);
	xa_init(&xa);
	cr_assert_eq(xa_insert(&xa, 5, E(5), GFP_KERNEL), 0);
	cr_assert_eq(xa_insert(&xa, 100, E(100), GFP_KERNEL), 0);
	struct xa_node *root = node_of(xa.xa_head), *leaf = node_of(root->slots[0]);
	cr_assert_eq(leaf->slots[5], E(5));

	host_rcu_cpu_online(1, true); /* CPU 1's reader stands on leaf */
	cr_assert_eq(xa_erase(&xa, 5), E(5));
	cr_assert_eq(xa_erase(&xa, 100), E(100));
	cr_assert(xa_empty(&xa));
	cr_assert_eq(xa.nr_nodes, 0);
	msleep(1); /* CPU 0 passes a quiescent state: not enough */
	cr_assert_not(host_mem_is_freed(leaf), "a node was freed under a reader");
	cr_assert_not(host_mem_is_freed(root), "a node was freed under a reader");
	cr_assert_null(READ_ONCE(leaf->slots[5]), "the reader sees the erase, not garbage");

	/* the two erases may have queued their frees behind two grace periods */
	for (int i = 0; i < 4 && !host_mem_is_freed(root); i++) {
		host_rcu_quiescent(1);
		msleep(1);
	}
	cr_assert(host_mem_is_freed(leaf) && host_mem_is_freed(root), "nodes not freed after a "
								      "grace period");
	host_rcu_cpu_online(1, false);
}
