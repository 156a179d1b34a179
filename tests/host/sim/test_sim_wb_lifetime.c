/*
 * A wb's lifetime against the readers of i_wb, on two virtual CPUs (host_smp_start()),
 * under many seeds (host_smp_seeds()).
 *
 * inode_to_wb_and_lock_list() and locked_inode_to_wb_and_lock_list() (fs/fs-writeback.c)
 * read i_wb under i_lock, then let i_lock go to take the wb's list_lock, which nests
 * outside it. In that gap a switch may move the inode to another wb and drop the inode's
 * reference on the old one; if that was the last (a removed group's wb), the wb is
 * released and, a grace period later, freed. The reader holds a reference of its own
 * across the gap (wb_get()), as Linux's: without it, the list_lock it takes is in freed
 * memory. __mark_inode_dirty() has the same window after the lookup, and so wakes the wb's
 * flusher before it lets the locks go, as Linux's now does, not after.
 *
 * CPU 1 runs the reader, which dirties a file's inode and writes it, over and over
 * (mark_inode_dirty_sync() and sync_inode_metadata(): the two callers, one on the way from
 * clean to dirty, one back). CPU 0 runs the remover, one group a round: the file switched to
 * the group's wb, the group removed, the file switched back to the root's wb
 * (inode_switch_wbs(), as a foreign-owner verdict does), and with it the wb's last
 * reference dropped, unless the reader holds one.
 *
 * The wb is freed a grace period after its release, and the reader's CPU passes a quiescent
 * state only when it switches tasks: the reader must be preempted inside a window and stay
 * off its CPU until the wb is gone. On a loaded machine another task's turn does that; here
 * it is busy's, woken on CPU 1 while the file is in the group: the reader, which has had
 * its share of the CPU, gives way at its next preemption point, wherever the seed has it
 * then, and runs again once the wb is freed (or busy's BUSY_TURNS are over). The allocators
 * poison what they free (AddressSanitizer, include/cgwb/kasan.h): a touch of the freed wb
 * is reported at once and fails the seed. Without the reader's reference, or with the
 * flusher woken after the locks, over a third of the seeds fail.
 *
 * The rest is for what the host lacks (tests/host/platform/vcpu.c). No tick: the reader
 * yields after each pass, so that what is woken on its CPU runs, and spends no CPU time
 * after its start (host_consume_ns() runs the events due on the way, which may spin on a
 * lock the other CPU holds). No tick to preempt a worker either: a dying wb made clean
 * queues its cleanup (wb_io_lists_depopulated()), and a reader cleaning the file on it again
 * and again would keep that work running on CPU 0 for good. Hence the anchor, a second
 * inode of the group, dirty and never written, which joins the wb before the group goes
 * and leaves it last: the wb is never made clean while the reader may run. And the groups
 * have the memory controller only: with io too, an io cgroup that dies before its memcg has
 * the reader's next writeback move the file to a new wb of the dying memcg
 * (wbc_attach_and_unlock_inode()), where no anchor is.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/writeback.h>
#include <cgwb/rcupdate.h>
#include <cgwb/completion.h>
#include <cgwb/wait.h>
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include "host.h"
#include "sim.h"

#define NR_SEEDS 40
#define ROUNDS 10
#define BUSY_TURNS 5000
#define RELEASE_YIELDS 1000

static const struct sim_config cfg = {
	.mem_mib = 64,
	.disk_mib = 32,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static struct inode *inode, *anchor;
static int memcg_ids[ROUNDS + 1]; /* group g<round>'s */
static bool remover_done;
static DECLARE_COMPLETION(reader_ready);

/* busy's rounds: started by the remover, ended by it or by BUSY_TURNS */
static DECLARE_WAIT_QUEUE_HEAD(busy_wq);
static int busy_started, busy_ended;
static bool busy_stop;

static int reader(void *unused)
{
	/*
	 * 10 ms of CPU time first, while the others start (no timer falls due in them): a task
	 * woken on this CPU then preempts the reader (SCHED_WAKEUP_GRAN_NS), as it would a
	 * task that has been running.
	 */
	host_consume_ns(10 * MSEC);
	complete(&reader_ready);
	while (!READ_ONCE(remover_done)) {
		mark_inode_dirty_sync(inode);
		sync_inode_metadata(inode, 0);
		yield();
	}
	return 0;
}

/* CPU 1's other task: it keeps the CPU from the reader while a group goes. */
static int busy(void *unused)
{
	for (int round = 1; round <= ROUNDS; round++) {
		wait_event(busy_wq, READ_ONCE(busy_started) == round);
		/* quiescent states, for the grace periods of the switches and of the release */
		for (int turn = 0; turn < BUSY_TURNS && !READ_ONCE(busy_stop); turn++)
			cond_resched();
		WRITE_ONCE(busy_ended, round);
		wake_up(&busy_wq);
	}
	return 0;
}

/* Until it is done: inode_switch_wbs() declines while another switch of the inode is on. */
static void switch_to(struct inode *i, int memcg_id)
{
	while (mem_cgroup_id(wb_memcg(inode_to_wb(i))) != memcg_id) {
		inode_switch_wbs(i, memcg_id);
		wb_wait_for_switches();
	}
}

static int remover(void *unused)
{
	int root_id = mem_cgroup_id(root_mem_cgroup);
	char path[64];

	wait_for_completion(&reader_ready);
	for (int round = 1; round <= ROUNDS; round++) {
		/* alone on a live wb: the reader's every pass opens both windows */
		switch_to(inode, memcg_ids[round]);

		/* CPU 1 to busy: the reader stops wherever the seed has it */
		WRITE_ONCE(busy_stop, false);
		WRITE_ONCE(busy_started, round);
		wake_up(&busy_wq);
		/* from now on the wb is never clean, should the reader run again (see the top) */
		switch_to(anchor, memcg_ids[round]);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/g%d", round);
		BUG_ON(do_rmdir(path));
		switch_to(inode, root_id);
		switch_to(anchor, root_id);
		/* the release, and the grace period that frees the wb, while busy runs */
		for (int i = 0; i < RELEASE_YIELDS && nr_cgwbs() && READ_ONCE(busy_ended) != round;
		     i++)
			yield();
		if (!nr_cgwbs())
			synchronize_rcu();
		WRITE_ONCE(busy_stop, true);
		wait_event(busy_wq, READ_ONCE(busy_ended) == round);
		/* a reader preempted with a reference of its own lets the wb go only now */
		while (nr_cgwbs())
			yield();
	}
	WRITE_ONCE(remover_done, true);
	return 0;
}

static void release_race(u64 seed)
{
	struct task_struct *m, *b, *r;

	sim_boot(&cfg);
	BUG_ON(sim_echo("/sys/fs/cgroup/cgroup.subtree_control", "-io"));
	for (int round = 1; round <= ROUNDS; round++) {
		char cg[16];

		snprintf(cg, sizeof(cg), "g%d", round);
		sim_mkcg(cg);
		memcg_ids[round] = sim_memcg_id(cg);
	}
	BUG_ON(sim_write_range(NULL, "/mnt/f", 0, PAGE_SIZE) != (long)PAGE_SIZE);
	BUG_ON(sim_write_range(NULL, "/mnt/anchor", 0, PAGE_SIZE) != (long)PAGE_SIZE);
	ksys_sync();
	inode = sim_inode("/mnt/f");
	anchor = sim_inode("/mnt/anchor");
	mark_inode_dirty_sync(anchor);

	host_smp_start(2, seed);
	m = sim_kthread_on(0, remover, NULL, "remover");
	b = sim_kthread_on(1, busy, NULL, "busy");
	r = sim_kthread_on(1, reader, NULL, "reader");
	BUG_ON(kthread_join(m));
	BUG_ON(kthread_join(b));
	BUG_ON(kthread_join(r));
	host_run_for(100 * MSEC); /* the grace periods and works still pending */
	BUG_ON(nr_cgwbs());
	iput(anchor);
	iput(inode);
	sim_shutdown();
}

Test(sim_wb_lifetime, a_reader_between_i_lock_and_list_lock_keeps_its_wb, .timeout = 600)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, release_race), 0);
}
