/*
 * The foreign-owner vote (wbc_account_owner_id + wbc_foreign_verdict, the arithmetic of
 * wbc_account_cgroup_owner and wbc_detach_inode) on worked examples at a bandwidth of
 * 25600 pages/s (100 MiB/s): the slot history, the average IO time and the winner after
 * each round, and when the verdict says "switch".
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>

#define MiB (1024UL * 1024)
#define BW 25600UL /* pages per second */
#define OWNER 2    /* memcg ids */
#define F 3
#define G 4

static struct inode inode;

static void reset(void)
{
	memset(&inode, 0, sizeof(inode));
	vm_dirty_foreign_fast_switch = 0;
}

TestSuite(wb_foreign_vote, .init = reset, .fini = reset);

/* Start a round like wbc_attach_and_unlock_inode does, for an inode owned by OWNER. */
static void round_start(struct writeback_control *wbc)
{
	memset(wbc, 0, sizeof(*wbc));
	wbc->wb_id = OWNER;
	wbc->wb_lcand_id = inode.i_wb_frn_winner;
}

/* One round in which id wrote bytes (and nobody else): the verdict. */
static int round_of(int id, size_t bytes)
{
	struct writeback_control wbc;

	round_start(&wbc);
	wbc_account_owner_id(&wbc, id, bytes);
	return wbc_foreign_verdict(&wbc, &inode, BW);
}

Test(wb_foreign_vote, three_foreign_rounds_of_28_mib_switch)
{
	/* 7168 pages x 8192 / 25600 = 2293.76: 2294 units (0.28 s), 3 slots a round */
	cr_assert_eq(round_of(F, 28 * MiB), 0);
	cr_assert_eq(inode.i_wb_frn_avg_time, 2294);
	cr_assert_eq(inode.i_wb_frn_history, 0x7);
	cr_assert_eq(inode.i_wb_frn_winner, F);
	cr_assert_eq(round_of(F, 28 * MiB), 0, "6 of 16 slots is no majority");
	cr_assert_eq(inode.i_wb_frn_history, 0x3f);
	cr_assert_eq(round_of(F, 28 * MiB), F, "9 of 16 slots foreign: switch to F");
	cr_assert_eq(inode.i_wb_frn_history, 0x1ff);
	cr_assert_eq(inode.i_wb_frn_avg_time, 2294, "equal rounds leave the average alone");
}

Test(wb_foreign_vote, nine_rounds_of_4_mib_switch)
{
	/* 1024 pages: 327.68 -> 328 units, one slot a round */
	for (int i = 1; i <= 8; i++) {
		cr_assert_eq(round_of(F, 4 * MiB), 0, "round %d", i);
		cr_assert_eq(inode.i_wb_frn_history, (1U << i) - 1);
	}
	cr_assert_eq(inode.i_wb_frn_avg_time, 328);
	cr_assert_eq(round_of(F, 4 * MiB), F, "the 9th round switches");
}

Test(wb_foreign_vote, rounds_of_50_mib_take_4_slots_and_the_history_keeps_16_bits)
{
	/* 12800 pages: exactly 4096 units, 4 slots */
	cr_assert_eq(round_of(F, 50 * MiB), 0);
	cr_assert_eq(inode.i_wb_frn_history, 0xf);
	cr_assert_eq(round_of(F, 50 * MiB), 0, "8 slots: not more than half");
	cr_assert_eq(round_of(F, 50 * MiB), F);
	cr_assert_eq(inode.i_wb_frn_history, 0xfff);
	/* nothing switched the inode here: older bits fall off the top */
	round_of(F, 50 * MiB);
	round_of(F, 50 * MiB);
	cr_assert_eq(inode.i_wb_frn_history, 0xffff);
	/* one round never adds more than 5 slots, however long */
	cr_assert_eq(round_of(OWNER, 400 * MiB), 0);
	cr_assert_eq(inode.i_wb_frn_history, 0xffe0);
}

Test(wb_foreign_vote, a_tiny_foreign_round_after_big_owner_rounds_does_not_vote)
{
	for (int i = 0; i < 4; i++)
		cr_assert_eq(round_of(OWNER, 28 * MiB), 0);
	cr_assert_eq(inode.i_wb_frn_avg_time, 2294);
	cr_assert_eq(inode.i_wb_frn_history, 0, "owner rounds shift in zeros");
	/* 1 MiB: 82 units; avg becomes 2294 + 82/8 - 2294/8 = 2018, and 82 < 2018/8 */
	cr_assert_eq(round_of(F, 1 * MiB), 0);
	cr_assert_eq(inode.i_wb_frn_avg_time, 2018, "the average moves even when the round is cut");
	cr_assert_eq(inode.i_wb_frn_history, 0, "the round was too short to vote");
	cr_assert_eq(inode.i_wb_frn_winner, F, "but its winner is remembered");
	/* many more such rounds never switch: the average stays above 8 x 82 for long */
	for (int i = 0; i < 16; i++) {
		cr_assert_eq(round_of(OWNER, 28 * MiB), 0);
		cr_assert_eq(round_of(F, 1 * MiB), 0);
	}
	cr_assert_eq(inode.i_wb_frn_history, 0);
}

Test(wb_foreign_vote, an_empty_round_changes_no_history)
{
	round_of(F, 28 * MiB);
	cr_assert_eq(round_of(F, 0), 0);
	cr_assert_eq(inode.i_wb_frn_history, 0x7, "0 bytes: 0 slots");
}

Test(wb_foreign_vote, boyer_moore_keeps_the_foreign_majority_as_candidate)
{
	struct writeback_control wbc;

	/* G 10 + 5 of 22 foreign units, in an order that first makes F and then H candidate */
	round_start(&wbc);
	wbc_account_owner_id(&wbc, F, 3 * MiB);
	wbc_account_owner_id(&wbc, 5, 4 * MiB);
	wbc_account_owner_id(&wbc, G, 10 * MiB);
	wbc_account_owner_id(&wbc, G, 5 * MiB);
	cr_assert_eq(wbc.wb_tcand_id, G);
	cr_assert_eq(wbc.wb_tcand_bytes, 15 * MiB);
	/* the candidate's count is net of the others' (a majority lower bound) */
	round_start(&wbc);
	wbc_account_owner_id(&wbc, G, 10 * MiB);
	wbc_account_owner_id(&wbc, F, 3 * MiB);
	wbc_account_owner_id(&wbc, 5, 4 * MiB);
	wbc_account_owner_id(&wbc, G, 5 * MiB);
	cr_assert_eq(wbc.wb_tcand_id, G);
	cr_assert_eq(wbc.wb_tcand_bytes, 8 * MiB);
	cr_assert_eq(wbc.wb_bytes, 0);
	cr_assert_eq(wbc.wb_round_bytes, 22 * MiB);
}

Test(wb_foreign_vote, the_owner_wins_ties_and_last_rounds_winner_counts_apart)
{
	struct writeback_control wbc;

	round_of(F, 28 * MiB); /* F is now the last winner */
	round_start(&wbc);
	cr_assert_eq(wbc.wb_lcand_id, F);
	wbc_account_owner_id(&wbc, OWNER, 8 * MiB);
	wbc_account_owner_id(&wbc, F, 8 * MiB);
	cr_assert_eq(wbc.wb_lcand_bytes, 8 * MiB);
	cr_assert_eq(wbc.wb_tcand_bytes, 8 * MiB);
	cr_assert_eq(wbc_foreign_verdict(&wbc, &inode, BW), 0);
	cr_assert_eq(inode.i_wb_frn_winner, OWNER, "a tie goes to the owner");
	cr_assert_eq(inode.i_wb_frn_history, 0x7 << 1, "its round shifts in a zero");

	/* the last winner beats the candidate on a tie */
	round_of(F, 28 * MiB);
	round_start(&wbc);
	wbc_account_owner_id(&wbc, G, 8 * MiB);
	wbc_account_owner_id(&wbc, F, 8 * MiB); /* cancels G's 8 */
	wbc_account_owner_id(&wbc, G, 8 * MiB); /* G is candidate again, with 8 */
	cr_assert_eq(wbc.wb_tcand_id, G);
	cr_assert_eq(wbc.wb_tcand_bytes, 8 * MiB);
	cr_assert_eq(wbc.wb_lcand_bytes, 8 * MiB);
	wbc_foreign_verdict(&wbc, &inode, BW);
	cr_assert_eq(inode.i_wb_frn_winner, F);
}

Test(wb_foreign_vote, owner_with_two_thirds_of_every_round_never_switches)
{
	for (int i = 0; i < 1000; i++) {
		struct writeback_control wbc;

		round_start(&wbc);
		wbc_account_owner_id(&wbc, OWNER, 8 * MiB);
		wbc_account_owner_id(&wbc, F, 4 * MiB);
		cr_assert_eq(wbc_foreign_verdict(&wbc, &inode, BW), 0, "round %d", i);
	}
	cr_assert_eq(inode.i_wb_frn_history, 0);
}

Test(wb_foreign_vote, opt_in_switches_after_one_clear_round_and_not_back_on_alternation)
{
	struct writeback_control wbc;

	vm_dirty_foreign_fast_switch = 1;
	/* a round that is only half foreign is not clear */
	round_start(&wbc);
	wbc_account_owner_id(&wbc, OWNER, 14 * MiB);
	wbc_account_owner_id(&wbc, F, 15 * MiB);
	cr_assert_eq(wbc_foreign_verdict(&wbc, &inode, BW), 0);
	/* nor is a short one (< 1/8 s of IO: 1 MiB is 82 units) */
	memset(&inode, 0, sizeof(inode));
	cr_assert_eq(round_of(F, 1 * MiB), 0);
	/* a clear one is */
	cr_assert_eq(round_of(F, 28 * MiB), F);

	/* the inode came to OWNER from F (a switch set i_wb_frn_prev) */
	memset(&inode, 0, sizeof(inode));
	inode.i_wb_frn_prev = F;
	/* taking turns with 64 MiB rounds (5 slots each): Linux's rule would switch at 10 */
	int switched = 0;
	for (int i = 0; i < 40; i++)
		switched += round_of(i % 2 ? OWNER : F, 64 * MiB) != 0;
	cr_assert_eq(switched, 0, "taking turns bounced the inode %d times", switched);
	/* a lasting majority still brings it back */
	for (int i = 0; i < 3 && !switched; i++)
		switched = round_of(F, 64 * MiB);
	cr_assert_eq(switched, F);
	cr_assert_geq(__builtin_popcount(inode.i_wb_frn_history), 12);

	/* in Linux's mode the same alternation does switch */
	memset(&inode, 0, sizeof(inode));
	inode.i_wb_frn_prev = F;
	vm_dirty_foreign_fast_switch = 0;
	switched = 0;
	for (int i = 0; i < 3; i++)
		switched += round_of(i % 2 ? OWNER : F, 64 * MiB) != 0;
	cr_assert_eq(switched, 1);
}

Test(wb_foreign_vote, opt_in_a_4_mib_round_is_clear_however_fast_the_owner)
{
	/* 4 MiB at 100 MiB/s: 328 units, a third of a slot; the bytes alone make it clear */
	cr_assert_eq(round_of(F, 4 * MiB), 0, "Linux's mode: one slot of the nine it needs");
	vm_dirty_foreign_fast_switch = 1;
	memset(&inode, 0, sizeof(inode));
	cr_assert_eq(round_of(F, 4 * MiB - 4096), 0, "under 4 MiB and under 1/8 s: not clear");
	memset(&inode, 0, sizeof(inode));
	cr_assert_eq(round_of(F, 4 * MiB), F);
	/* 3/4 of the round is still needed */
	memset(&inode, 0, sizeof(inode));
	struct writeback_control wbc;
	round_start(&wbc);
	wbc_account_owner_id(&wbc, OWNER, 2 * MiB);
	wbc_account_owner_id(&wbc, F, 5 * MiB);
	cr_assert_eq(wbc_foreign_verdict(&wbc, &inode, BW), 0, "5 of 7 MiB is under 3/4");
}

Test(wb_foreign_vote, opt_in_a_clear_round_counts_however_short_beside_the_average)
{
	/* 64 MiB: 16384 pages x 8192 / 25600 = 5242.88 -> 5243 units */
	for (int i = 0; i < 4; i++)
		round_of(OWNER, 64 * MiB);
	cr_assert_eq(inode.i_wb_frn_avg_time, 5243);
	/* 4 MiB (328 units) moves the average to 5243 + 41 - 655 = 4629; 328 < 4629 / 8 */
	cr_assert_eq(round_of(F, 4 * MiB), 0, "Linux's mode: too short beside the average");
	cr_assert_eq(inode.i_wb_frn_avg_time, 4629);
	cr_assert_eq(inode.i_wb_frn_history, 0);

	memset(&inode, 0, sizeof(inode));
	vm_dirty_foreign_fast_switch = 1;
	for (int i = 0; i < 4; i++)
		round_of(OWNER, 64 * MiB);
	cr_assert_eq(round_of(F, 4 * MiB), F, "a clear round is no noise");
	cr_assert_eq(inode.i_wb_frn_history, 0, "it switches without voting in the history");
}
