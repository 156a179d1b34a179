/*
 * Memory-controller charging through the real page cache: pages written on ramfs (/tmp)
 * and on ext2 on a file-backed disk are charged to the writer's memcg and uncharged when
 * they leave the cache. After every step the books must balance: no counter below zero,
 * each memcg's usage equal to the page-cache pages of its subtree, the root's equal to
 * the whole page cache, hierarchical figures equal to the sum of the children's.
 */
#include "cgroup_test.h"
#include <cgwb/vmstat.h>
#include <cgwb/vmscan.h>
#include "test_ext2.h"
#include "cg/memcg/memcg.h"

static void setup_ramfs(void)
{
	cgt_setup();
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
}

static void setup_ext2(void)
{
	ext2t_boot(96);
	cr_assert_eq(cgroup_fs_init(), 0);
	ext2t_mkfs(NULL, 32 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
}

static void teardown_ext2(void)
{
	cgt_enter("");
	ext2t_shutdown();
}

TestSuite(memcg_charge, .init = setup_ramfs, .fini = vfs_test_teardown);
TestSuite(memcg_charge_ext2, .init = setup_ext2, .fini = teardown_ext2);

/* Counters that describe pages present now (not event counts): they must add up. */
static const enum node_stat_item gauges[] = {
	NR_FILE_PAGES,    NR_FILE_DIRTY,  NR_WRITEBACK, NR_ACTIVE_FILE,
	NR_INACTIVE_FILE, NR_UNEVICTABLE, NR_SHMEM,     NR_ANON_MAPPED,
};

static void check_books(void)
{
	struct mem_cgroup *memcg = NULL;
	struct memcg_stat_sums sums;

	while ((memcg = mem_cgroup_iter(NULL, memcg))) {
		for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
			cr_assert_geq(memcg_page_state_local(memcg, i), 0, "memcg %d item %d < 0",
				      mem_cgroup_id(memcg), i);
		cr_assert_eq(cgt_usage(memcg),
			     memcg_page_state(memcg, NR_FILE_PAGES) +
				     memcg_page_state(memcg, NR_ANON_MAPPED),
			     "memcg %d: usage %lu, file pages %lu", mem_cgroup_id(memcg),
			     cgt_usage(memcg), memcg_page_state(memcg, NR_FILE_PAGES));
		/* on an LRU list or unevictable: each page in exactly one place */
		cr_assert_eq(memcg_page_state_local(memcg, NR_FILE_PAGES),
			     memcg_page_state_local(memcg, NR_ACTIVE_FILE) +
				     memcg_page_state_local(memcg, NR_INACTIVE_FILE) +
				     memcg_page_state_local(memcg, NR_UNEVICTABLE));
	}
	cr_assert_eq(cgt_usage(root_mem_cgroup), global_node_page_state_snapshot(NR_FILE_PAGES));
	/* exact sums on both sides: the dirty counts' reads miss the CPUs' parts */
	memcg_stat_sum(root_mem_cgroup, &sums);
	for (size_t i = 0; i < ARRAY_SIZE(gauges); i++)
		cr_assert_eq(sums.stat[gauges[i]], global_node_page_state_signed(gauges[i]),
			     "item %d", gauges[i]);
}

static void write_file(const char *path, size_t bytes)
{
	char *buf = calloc(1, bytes ? bytes : 1);
	struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	cr_assert(!IS_ERR(f), "open %s", path);
	memset(buf, 'x', bytes);
	cr_assert_eq(file_write(f, buf, bytes), (long)bytes);
	fput(f);
	free(buf);
}

Test(memcg_charge, ramfs_conservation)
{
	unsigned long before = cgt_usage(root_mem_cgroup);

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("B"), 0);
	cr_assert_eq(cgt_num("A/memory.current"), 0);
	cgt_enter("A");
	write_file("/tmp/a1", 10000); /* 3 pages */
	write_file("/tmp/a2", 4096 * 5);
	check_books();
	cr_assert_eq(cgt_num("A/memory.current"), 8 * 4096);
	cr_assert_eq(cgt_key("A/memory.stat", "file"), 8 * 4096);
	cr_assert_eq(cgt_key("A/memory.stat", "unevictable"), 8 * 4096);
	cr_assert_eq(cgt_key("A/memory.stat", "file_dirty"), 0); /* ramfs is never dirty-accounted */
	cr_assert_eq(cgt_key("A/memory.stat", "anon"), 0);
	cgt_enter("B");
	write_file("/tmp/b1", 4096 * 3);
	check_books();
	cr_assert_eq(cgt_num("B/memory.current"), 3 * 4096);
	cr_assert_eq(cgt_usage(root_mem_cgroup), before + 11);
	cr_assert_eq(cgt_key("memory.stat", "file"),
		     (long long)global_node_page_state_snapshot(NR_FILE_PAGES) * 4096);
	cgt_enter("");
	cr_assert_eq(do_unlink("/tmp/a1"), 0);
	check_books();
	cr_assert_eq(cgt_num("A/memory.current"), 5 * 4096);
	cr_assert_eq(do_unlink("/tmp/a2"), 0);
	cr_assert_eq(do_unlink("/tmp/b1"), 0);
	check_books();
	cr_assert_eq(cgt_num("A/memory.current"), 0);
	cr_assert_eq(cgt_num("B/memory.current"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "file"), 0);
	cr_assert_eq(cgt_usage(root_mem_cgroup), before);
	cr_assert_gt(cgt_num("A/memory.peak"), 0);
}

Test(memcg_charge, first_use_rule)
{
	char buf[4096];
	struct file *f;

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("B"), 0);
	cgt_enter("A");
	write_file("/tmp/shared", 4096 * 2);
	cgt_enter("B");
	/* B reads and rewrites A's pages: they stay A's; B pays only for the new page */
	f = filp_open("/tmp/shared", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(file_read(f, buf, sizeof(buf)), (long)sizeof(buf));
	f->f_pos = 0;
	cr_assert_eq(file_write(f, buf, sizeof(buf)), (long)sizeof(buf));
	fput(f);
	write_file("/tmp/shared", 4096);
	check_books();
	cr_assert_eq(cgt_num("A/memory.current"), 2 * 4096);
	cr_assert_eq(cgt_num("B/memory.current"), 4096);
	cgt_enter("");
}

Test(memcg_charge, hierarchy_sums)
{
	cr_assert_eq(cgt_mkdir("P"), 0);
	cr_assert_eq(cgt_write("P/cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("P/C1"), 0);
	cr_assert_eq(cgt_mkdir("P/C2"), 0);
	cgt_enter("P/C1");
	write_file("/tmp/c1", 4096 * 4);
	cgt_enter("P/C2");
	write_file("/tmp/c2", 4096 * 6);
	cgt_enter("P");
	write_file("/tmp/p", 4096);
	cgt_enter("");
	check_books();
	cr_assert_eq(cgt_num("P/memory.current"), 11 * 4096);
	cr_assert_eq(cgt_key("P/memory.stat", "file"),
		     cgt_key("P/C1/memory.stat", "file") + cgt_key("P/C2/memory.stat", "file") + 4096);
	cr_assert_eq(memcg_page_state_local(cgt_memcg("P"), NR_FILE_PAGES), 1);
	cr_assert_eq(memcg_page_state(cgt_memcg("P"), NR_FILE_PAGES), 11);
	cr_assert_eq(do_unlink("/tmp/c1"), 0);
	cr_assert_eq(do_unlink("/tmp/c2"), 0);
	cr_assert_eq(do_unlink("/tmp/p"), 0);
	check_books();
	cr_assert_eq(cgt_num("P/memory.current"), 0);
}

Test(memcg_charge, removed_memcg_keeps_its_pages)
{
	struct mem_cgroup *a;

	cr_assert_eq(cgt_mkdir("A"), 0);
	a = cgt_memcg("A");
	cgt_enter("A");
	write_file("/tmp/left", 4096 * 4);
	cgt_enter("");
	cr_assert_eq(cgt_rmdir("A"), 0);
	/* offline, alive while its pages are, and still counted from the root */
	cr_assert(css_is_dying(&a->css));
	cr_assert_eq(cgt_usage(a), 4);
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 1\n");
	check_books();
	host_run_until_idle();
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 1\n");
	cr_assert_eq(do_unlink("/tmp/left"), 0);
	host_run_until_idle(); /* the last page's reference queued the release */
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0\n");
	check_books();
}

Test(memcg_charge, disabled_memcg_keeps_its_pages)
{
	cr_assert_eq(cgt_mkdir("A"), 0);
	cgt_enter("A");
	write_file("/tmp/a", 4096 * 2);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), 0);
	/* new pages go to the root now; the old ones stay with the offline memcg */
	write_file("/tmp/a", 4096);
	check_books();
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_num("A/memory.current"), 0);
	cgt_enter("");
	cr_assert_eq(do_unlink("/tmp/a"), 0);
	host_run_until_idle();
	check_books();
}

Test(memcg_charge_ext2, dirty_writeback_and_reclaim)
{
	cr_assert_eq(cgt_mkdir("A"), 0);
	cgt_enter("A");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 7, 0, 1 << 20), 0);
	check_books();
	cr_assert_geq(cgt_num("A/memory.current"), 1 << 20);
	cr_assert_gt(cgt_key("A/memory.stat", "file_dirty"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "unevictable"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "active_file") + cgt_key("A/memory.stat", "inactive_"
											"file"),
		     cgt_key("A/memory.stat", "file"));
	ksys_sync();
	check_books();
	cr_assert_eq(cgt_key("A/memory.stat", "file_dirty"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "file_writeback"), 0);
	cr_assert_geq(cgt_num("A/memory.current"), 1 << 20);
	/* reading it back in B does not move the charge */
	cr_assert_eq(cgt_mkdir("B"), 0);
	cgt_enter("B");
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 7, 1 << 20), 0);
	cr_assert_lt(cgt_num("B/memory.current"), 16 * 4096);
	/* clean pages can all be dropped: A's usage goes back to (almost) nothing */
	cgt_enter("");
	drop_pagecache();
	check_books();
	cr_assert_lt(cgt_num("A/memory.current"), 16 * 4096);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f"), 0);
	check_books();
}

/* Two groups of clean pages, 1 MiB in A and 3 MiB in B. */
static void two_clean_groups(void)
{
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("B"), 0);
	cgt_enter("A");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/a", 1, 0, 1 << 20), 0);
	cgt_enter("B");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/b", 2, 0, 3 << 20), 0);
	cgt_enter("");
	ksys_sync();
}

Test(memcg_charge_ext2, global_reclaim_scans_every_group)
{
	long long steal_a, steal_b;
	unsigned long freed;

	two_clean_groups();
	freed = try_to_free_pages(GFP_KERNEL, 128);
	check_books();
	steal_a = cgt_key("A/memory.stat", "pgsteal");
	steal_b = cgt_key("B/memory.stat", "pgsteal");
	cr_assert_geq(freed, 128);
	cr_assert_gt(steal_a, 0);
	/* in proportion to their sizes */
	cr_assert_geq(steal_b, 2 * steal_a, "A %lld, B %lld", steal_a, steal_b);
	cr_assert_leq(steal_b, 4 * steal_a, "A %lld, B %lld", steal_a, steal_b);
	cr_assert_eq(cgt_key("memory.stat", "pgsteal"), (long long)global_vm_event(PGSTEAL));
}

Test(memcg_charge_ext2, targeted_reclaim_stays_in_its_group)
{
	long long b = 0;
	unsigned long freed;

	two_clean_groups();
	b = cgt_num("B/memory.current");
	freed = try_to_free_mem_cgroup_pages(cgt_memcg("A"), 64, GFP_KERNEL);
	check_books();
	cr_assert_geq(freed, 64);
	cr_assert_eq(cgt_num("B/memory.current"), b);
	cr_assert_eq(cgt_key("B/memory.stat", "pgscan"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "pgsteal"), (long long)freed);
}

/*
 * A memcg's dirty and writeback counts are per CPU (virtual CPUs, host_set_cpu): pages
 * dirtied on four CPUs stay in their parts, out of the shared count, and every reader (the
 * local and hierarchical counts, memory.stat, the dirty domain's sums) adds them up.
 */
Test(memcg_charge, dirty_counts_are_per_cpu_and_summed_where_exact)
{
	struct page page = { 0 };
	struct memcg_stat_sums sums;
	struct mem_cgroup *memcg;

	cr_assert_eq(cgt_mkdir("D"), 0);
	memcg = cgt_memcg("D");
	page.memcg = memcg;
	host_set_nr_cpus(4);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		host_set_cpu(cpu);
		mem_cgroup_mod_page_state(&page, NR_FILE_DIRTY, 60);
		mem_cgroup_mod_page_state(&page, NR_WRITEBACK, 3);
		host_set_cpu(0);
	}
	cr_assert_eq(percpu_counter_read(&memcg->pcpu_stat[0]), 0, "all in the CPUs' parts");
	cr_assert_eq(memcg_page_state(memcg, NR_FILE_DIRTY), 240);
	cr_assert_eq(memcg_page_state_local(memcg, NR_FILE_DIRTY), 240);
	cr_assert_eq(memcg_page_state_local(memcg, NR_WRITEBACK), 12);
	memcg_stat_sum(memcg, &sums);
	cr_assert_eq(sums.stat[NR_FILE_DIRTY], 240);
	cr_assert_eq(cgt_key("D/memory.stat", "file_dirty"), 240 * 4096);
	cr_assert_eq(cgt_key("D/memory.stat", "file_writeback"), 12 * 4096);
	/* past the batch a CPU folds its part: the read sees it */
	host_set_cpu(2);
	mem_cgroup_mod_page_state(&page, NR_FILE_DIRTY, 4);
	host_set_cpu(0);
	cr_assert_eq(percpu_counter_read(&memcg->pcpu_stat[0]), 64);
	cr_assert_eq(memcg_page_state(memcg, NR_FILE_DIRTY), 244);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		host_set_cpu(cpu);
		mem_cgroup_mod_page_state(&page, NR_FILE_DIRTY, cpu == 2 ? 0 : -60);
		mem_cgroup_mod_page_state(&page, NR_WRITEBACK, -3);
		host_set_cpu(0);
	}
	mem_cgroup_mod_page_state(&page, NR_FILE_DIRTY, -64);
	cr_assert_eq(memcg_page_state_local(memcg, NR_FILE_DIRTY), 0);
	cr_assert_eq(cgt_rmdir("D"), 0);
}
