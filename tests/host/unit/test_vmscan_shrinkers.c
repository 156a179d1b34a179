/*
 * Reclaim and the filesystems: the shrinkers (which evict inodes, and evicting may wait for
 * a journal commit) run without reclaim's own lock, so a task that needs memory while
 * holding up that commit (a journal handle open) can still reclaim; and a task with a
 * handle open never enters a filesystem from reclaim.
 */
#include "cgroup_test.h"
#include <cgwb/vmscan.h>
#include <cgwb/gfp.h>

static unsigned int scans;
static unsigned long child_freed;

static int needs_memory(void *unused)
{
	(void)unused;
	/* as a handle holder's allocation: no filesystem, but reclaim's lock all the same */
	child_freed = try_to_free_pages(GFP_NOFS, 1) + 1;
	return 0;
}

/* Waits for a task that reclaims, as an inode's eviction waits for a journal commit. */
static unsigned long waits_for_a_reclaimer(unsigned long nr)
{
	struct task_struct *t;

	(void)nr;
	if (scans++)
		return 0;
	t = kthread_run(needs_memory, NULL, "needs-memory");
	cr_assert_not_null(t);
	cr_assert_eq(kthread_join(t), 0);
	return 0;
}

static struct shrinker waiting_shrinker = { .scan = waits_for_a_reclaimer };

static unsigned long counts_scans(unsigned long nr)
{
	(void)nr;
	scans++;
	return 0;
}

static struct shrinker counting_shrinker = { .scan = counts_scans };

/* Allocates, and so reclaims, from inside reclaim. */
static unsigned long reclaims_again(unsigned long nr)
{
	scans++;
	cr_assert(current_in_reclaim());
	return try_to_free_pages(GFP_KERNEL, nr);
}

static struct shrinker reentering_shrinker = { .scan = reclaims_again };

static void setup(void)
{
	cgt_setup();
	scans = 0;
	child_freed = 0;
}

TestSuite(vmscan_shrinkers, .init = setup, .fini = vfs_test_teardown, .timeout = 60);

Test(vmscan_shrinkers, a_shrinker_may_wait_for_another_reclaimer)
{
	register_shrinker(&waiting_shrinker);
	try_to_free_pages(GFP_KERNEL, 1);
	cr_assert_eq(scans, 1);
	cr_assert_eq(child_freed, 1, "the other task's reclaim did not come back");
}

Test(vmscan_shrinkers, what_a_shrinker_allocates_does_not_reclaim_again)
{
	register_shrinker(&reentering_shrinker);
	try_to_free_pages(GFP_KERNEL, 1);
	cr_assert_eq(scans, 1, "reclaim ran its shrinkers again from inside them");
	cr_assert_not(current_in_reclaim(), "still marked as reclaiming after it");
}

Test(vmscan_shrinkers, a_task_with_a_journal_handle_open_stays_out_of_filesystems)
{
	bool old;

	register_shrinker(&counting_shrinker);
	old = memalloc_nofs_save();
	try_to_free_pages(GFP_KERNEL, 1);
	memalloc_nofs_restore(old);
	cr_assert_eq(scans, 0);
	try_to_free_pages(GFP_KERNEL, 1);
	cr_assert_eq(scans, 1);
}
