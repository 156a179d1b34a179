/*
 * Memory limits: memory.max and memory.high parsing (good and bad lines), a group writing
 * more than its limit on ext2 kept at or below it by reclaim of its own pages, a lowered
 * limit reclaimed down to, memory.high trimming, limits of ancestors, and the way out when
 * nothing can be reclaimed (ramfs) for a task that may not be killed: an OOM event and a
 * charge past the limit, never a hang (test_memcg_oom.c: the others are killed).
 */
#include "cgroup_test.h"
#include <cgwb/vmstat.h>
#include "test_ext2.h"

static void setup_ramfs(void)
{
	cgt_setup();
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
}

static void setup_ext2(void)
{
	ext2t_boot(96);
	cr_assert_eq(cgroup_fs_init(), 0);
	ext2t_mkfs(NULL, 32 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
	host_set_time_limit(600ULL * NSEC_PER_SEC);
}

static void teardown_ext2(void)
{
	cgt_enter("");
	ext2t_shutdown();
}

TestSuite(memcg_limit, .init = setup_ramfs, .fini = vfs_test_teardown);
TestSuite(memcg_limit_ext2, .init = setup_ext2, .fini = teardown_ext2);

static void check_limit_file(const char *file)
{
	static const struct {
		const char *in;
		long long bytes; /* what reads back; -1: "max" */
	} good[] = {
		{ "1048576", 1048576 },
		{ "max", -1 },
		{ "64K", 65536 },
		{ "2M\n", 2 << 20 },
		{ " 3m ", 3 << 20 },
		{ "1G", 1LL << 30 },
		{ "4097", 4096 },
		{ "0", 0 },
		{ "max\n", -1 },
		{ "1KiB", 0 },
		/* more than a page counter holds (found by the pseudo-file fuzzer): max, as Linux */
		{ "14645300000001464538", -1 },
		{ "9223372036854771712", -1 },
	};
	static const char *const bad[] = {
		"",     "\n",      "abc",  "-1",   "1X", "1M M",
		"0x10", "max max", "maxi", "1.5M", "+5", "99999999999999999999999",
		"1 2",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		cr_assert_eq(cgt_write(file, good[i].in), 0, "%s '%s'", file, good[i].in);
		cr_assert_eq(cgt_num(file), good[i].bytes, "%s '%s' reads %s", file, good[i].in,
			     cgt_read(file));
	}
	cr_assert_eq(cgt_write(file, "12M"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = cgt_write(file, bad[i]);

		cr_assert(err == -EINVAL || err == -ERANGE, "%s '%s': %d", file, bad[i], err);
		cr_assert_str_eq(cgt_read(file), "12582912\n", "%s changed by '%s'", file, bad[i]);
	}
}

Test(memcg_limit, parse_max_and_high)
{
	cr_assert_str_eq(cgt_read("A/memory.max"), "max\n");
	cr_assert_str_eq(cgt_read("A/memory.high"), "max\n");
	check_limit_file("A/memory.max");
	check_limit_file("A/memory.high");
	cr_assert_eq(cgt_write("A/memory.current", "1"), -EACCES);
	cr_assert_eq(cgt_write("A/memory.stat", "1"), -EACCES);
	cr_assert_eq(cgt_write("A/memory.events", "1"), -EACCES);
}

static void write_tmp(const char *path, size_t bytes)
{
	char *buf = malloc(bytes);
	struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	cr_assert(!IS_ERR(f));
	memset(buf, 'y', bytes);
	cr_assert_eq(file_write(f, buf, bytes), (long)bytes);
	fput(f);
	free(buf);
}

/* A charger the OOM killer may not kill (the console shell) goes past the limit instead. */
Test(memcg_limit, nothing_to_reclaim_charges_an_unkillable_task_past_the_limit)
{
	cr_assert_eq(cgt_write("A/memory.max", "64K"), 0);
	cgt_enter("A");
	current->oom_score_adj = OOM_SCORE_ADJ_MIN;
	/* ramfs pages cannot be reclaimed: the writes still succeed, past the limit */
	write_tmp("/tmp/big", 256 << 10);
	write_tmp("/tmp/big2", 16 << 10);
	current->oom_score_adj = 0;
	cgt_enter("");
	cr_assert_not(signal_pending(current));
	cr_assert_eq(cgt_num("A/memory.current"), (256 + 16) << 10);
	cr_assert_geq(cgt_key("A/memory.events", "oom"), 1);
	cr_assert_geq(cgt_key("A/memory.events", "max"), 1);
	cr_assert_eq(cgt_key("A/memory.events", "oom_kill"), 0);
	cr_assert_eq(host_log_count("charging past it"), 1);
	/* the overshoot shows in the peak */
	cr_assert_eq(cgt_num("A/memory.peak"), (256 + 16) << 10);
	cr_assert_eq(do_unlink("/tmp/big"), 0);
	cr_assert_eq(do_unlink("/tmp/big2"), 0);
	cr_assert_eq(cgt_num("A/memory.current"), 0);
}

Test(memcg_limit, no_wait_charge_fails_over_the_limit)
{
	struct page *page = alloc_page(GFP_KERNEL);

	cr_assert_eq(cgt_write("A/memory.max", "0"), 0);
	cgt_enter("A");
	cr_assert_eq(mem_cgroup_charge(page, GFP_NOWAIT), -ENOMEM);
	cr_assert_null(page->memcg);
	cr_assert_eq(mem_cgroup_charge(page, GFP_NOWAIT | __GFP_NOFAIL), 0);
	cr_assert_eq(page->memcg, cgt_memcg("A"));
	cr_assert_eq(cgt_num("A/memory.current"), 4096);
	mem_cgroup_uncharge(page);
	cr_assert_null(page->memcg);
	cr_assert_eq(cgt_num("A/memory.current"), 0);
	cgt_enter("");
	put_page(page);
}

Test(memcg_limit_ext2, writer_kept_below_max)
{
	cr_assert_eq(cgt_write("A/memory.max", "1M"), 0);
	cgt_enter("A");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/big", 3, 0, 6 << 20), 0);
	cr_assert_leq(cgt_num("A/memory.current"), 1 << 20);
	cr_assert_leq(cgt_num("A/memory.peak"), 1 << 20);
	cr_assert_gt(cgt_key("A/memory.stat", "pgsteal"), 0);
	cr_assert_geq(cgt_key("A/memory.stat", "pgscan"), cgt_key("A/memory.stat", "pgsteal"));
	cr_assert_gt(cgt_key("A/memory.events", "max"), 0);
	cr_assert_eq(cgt_key("A/memory.events", "oom"), 0);
	/* reading it all back goes through the same limit */
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/big", 3, 6 << 20), 0);
	cr_assert_leq(cgt_num("A/memory.current"), 1 << 20);
	cgt_enter("");
	ksys_sync();
	ext2t_umount();
	ext2t_fsck_clean();
}

Test(memcg_limit_ext2, lowering_max_reclaims)
{
	cgt_enter("A");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 5, 0, 2 << 20), 0);
	cgt_enter("");
	cr_assert_geq(cgt_num("A/memory.current"), 2 << 20);
	/* dirty pages are written back first: the write waits, then succeeds */
	cr_assert_eq(cgt_write("A/memory.max", "512K"), 0);
	cr_assert_leq(cgt_num("A/memory.current"), 512 << 10);
	cr_assert_str_eq(cgt_read("A/memory.max"), "524288\n");
	cr_assert_eq(cgt_key("A/memory.stat", "file_dirty"), 0);
	cr_assert_eq(cgt_write("A/memory.max", "max"), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 5, 2 << 20), 0);
}

Test(memcg_limit_ext2, high_trims_after_the_charge)
{
	cr_assert_eq(cgt_write("A/memory.high", "256K"), 0);
	cgt_enter("A");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 9, 0, 1 << 20), 0);
	ksys_sync();
	/* now clean: the next charge trims the group to memory.high */
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/g", 9, 0, 4096), 0);
	cgt_enter("");
	cr_assert_leq(cgt_num("A/memory.current"), 256 << 10);
	cr_assert_gt(cgt_key("A/memory.events", "high"), 0);
	cr_assert_eq(cgt_key("A/memory.events", "oom"), 0);
}

Test(memcg_limit_ext2, ancestor_limit_holds_for_children)
{
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A/C"), 0);
	cr_assert_eq(cgt_write("A/memory.max", "1M"), 0);
	cgt_enter("A/C");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 11, 0, 4 << 20), 0);
	cgt_enter("");
	cr_assert_leq(cgt_num("A/memory.peak"), 1 << 20);
	cr_assert_leq(cgt_num("A/C/memory.peak"), 1 << 20);
	/* the event belongs to the group at its limit (and its ancestors), not below it */
	cr_assert_gt(cgt_key("A/memory.events", "max"), 0);
	cr_assert_eq(cgt_key("A/C/memory.events", "max"), 0);
	cr_assert_eq(cgt_key("A/memory.stat", "pgsteal"), cgt_key("A/C/memory.stat", "pgsteal"));
	cr_assert_gt(cgt_key("A/C/memory.stat", "pgsteal"), 0);
}
