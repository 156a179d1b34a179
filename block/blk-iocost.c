/*
 * io.cost's issue path (Linux's ioc_rqos_throttle() and its helpers): every bio of a
 * controlled disk is priced by the cost model and paid for out of its group's budget, the
 * distance its vtime cursor lags the disk's vtime.
 *
 * Policy, as Linux 6.1 has it:
 * - The root group is never throttled; flushes carry no data and cost nothing.
 * - A bio within budget goes at once and moves the group's cursor by its cost over the
 *   group's hweight_inuse. A group that was idle restarts with at most half a period of
 *   credit (margins.target): an idle group cannot bank budget.
 * - A bio over budget waits, with its submitter, in its group's FIFO until the disk's vtime
 *   has advanced far enough; a timer fires then. A donating group that runs short takes
 *   its weight back first.
 * - IO that must not wait (REQ_META: the filesystem's metadata, which others may wait on,
 *   or a submitter that cannot sleep) goes at once and its cost becomes the group's debt:
 *   paid from the budget before anything else of the group may go, and, while it is large,
 *   by delaying the group's tasks (blkcg_maybe_throttle_current()).
 *
 * Races: budgets, waiters and debt change under ioc->lock only; a waiter's entry is marked
 * committed under it and the waiter rechecks after each wake-up. The bio's group is pinned
 * by the bio's reference on its blkcg for as long as the submitter waits.
 */
#include "blk-cgroup.h"
#include "blk.h"
#include <cgwb/blkdev.h>
#include <cgwb/irqflags.h>
#include <cgwb/sched.h>

struct iocg_wait {
	struct list_head node;
	struct bio *bio;
	u64 abs_cost;
	bool committed;
};

/* The lower the group's share, the more each IO costs it. Rounded up. */
static u64 abs_cost_to_cost(u64 abs_cost, u32 hw_inuse)
{
	return DIV_ROUND_UP(abs_cost * WEIGHT_ONE, hw_inuse);
}

static u64 cost_to_abs_cost(u64 cost, u32 hw_inuse)
{
	return DIV_ROUND_UP(cost * hw_inuse, WEIGHT_ONE);
}

/* The bio goes within budget: the group's cursor moves, and the cost is in flight. */
static void iocg_commit(struct ioc_gq *iocg, struct bio *bio, u64 abs_cost, u64 cost)
{
	iocg->vtime += cost;
	bio->bi_iocost_cost = cost;
	bio->bi_iocg = iocg;
	iocg->usage_vtime += abs_cost;
	iocg->abs_vusage += abs_cost;
}

/*
 * Unused budget thrown away: the cursor moves on, and done_vtime with it (nothing of it
 * was ever in flight).
 */
void iocg_wind_vtime(struct ioc_gq *iocg, u64 delta)
{
	iocg->vtime += delta;
	__atomic_add_fetch(&iocg->done_vtime, delta, __ATOMIC_RELAXED);
}

/* The disk's controller runs in periods while some group is active. */
static void ioc_start_period(struct ioc *ioc, struct ioc_now *now)
{
	ioc->period_at = now->now;
	ioc->period_at_vtime = now->vnow;
	ioc->running = true;
	mod_timer(&ioc->timer, jiffies + ioc_us_to_jiffies(ioc->period_us));
}

/* A group issues: make it active, with at most margins.target of credit. */
static void iocg_activate(struct ioc_gq *iocg, struct ioc_now *now)
{
	struct ioc *ioc = iocg->ioc;
	u64 vmin = now->vnow - (u64)ioc->margins.target;

	iocg->active_period = ioc->cur_period;
	if (!list_empty(&iocg->active_list))
		return;
	if ((s64)(iocg->vtime - vmin) < 0)
		iocg_wind_vtime(iocg, vmin - iocg->vtime);
	propagate_weights(iocg, iocg->weight, iocg->weight);
	list_add_tail(&iocg->active_list, &ioc->active_iocgs);
	if (!ioc->running)
		ioc_start_period(ioc, now);
}

/*
 * The share a debt is paid at. Linux 6.1's debtor lends its inuse and pays at its
 * hw_active, which halves beside one busy sibling of its weight. Expedited writeback's
 * debt is the group's own data sent early for someone else's commit: it keeps its inuse
 * and pays at its hw_inuse, the share its data would have gone at (a group whose data the
 * commits take ran at half its share beside a sibling that fsyncs); never below hw_active,
 * for a debt that began as another kind and so gave its inuse away.
 */
static u32 iocg_debt_hweight(struct ioc_gq *iocg)
{
	u32 hwa, hwi;

	current_hweight(iocg, &hwa, &hwi);
	return iocg->expedited_debt ? max(hwa, hwi) : hwa;
}

/* Debt grows: delay the group's tasks in proportion to how far it runs ahead. */
void iocg_kick_delay(struct ioc_gq *iocg, struct ioc_now *now)
{
	struct ioc *ioc = iocg->ioc;
	u64 tdelta = now->now - iocg->delay_at, delay = 0, new_delay;
	s64 vover, vover_pct;
	u32 hwa;

	/* what is in force halves every second */
	if (iocg->delay && tdelta / USEC_PER_SEC < 64)
		delay = iocg->delay >> (tdelta / USEC_PER_SEC);
	hwa = iocg_debt_hweight(iocg);
	vover = (s64)(iocg->vtime + abs_cost_to_cost(iocg->abs_vdebt, hwa) - now->vnow);
	vover_pct = vover * 100 / (s64)((u64)ioc->period_us * ioc->vtime_base_rate);
	if (vover_pct <= MIN_DELAY_THR_PCT)
		new_delay = 0;
	else if (vover_pct >= MAX_DELAY_THR_PCT)
		new_delay = MAX_DELAY_US;
	else
		new_delay = MIN_DELAY_US + (MAX_DELAY_US - MIN_DELAY_US) *
						   (u64)(vover_pct - MIN_DELAY_THR_PCT) /
						   (MAX_DELAY_THR_PCT - MIN_DELAY_THR_PCT);
	if (new_delay > delay) {
		iocg->delay = new_delay;
		iocg->delay_at = now->now;
		delay = new_delay;
	}
	if (delay >= MIN_DELAY_US) {
		if (!iocg->indelay_since)
			iocg->indelay_since = now->now;
		blkg_set_delay(iocg_to_blkg(iocg), delay * NSEC_PER_USEC);
	} else {
		if (iocg->indelay_since) {
			iocg->stat.indelay_us += now->now - iocg->indelay_since;
			iocg->indelay_since = 0;
		}
		iocg->delay = 0;
		blkg_set_delay(iocg_to_blkg(iocg), 0);
	}
}

/*
 * Pay the debt out of the budget there is, at the share iocg_debt_hweight() gives (a
 * debtor's hw_active: its inuse is 1, it lends its whole share to the others until it has
 * paid): true if some is left.
 * Paid off, the group takes its inuse back. The delay is looked at while there is debt
 * or a delay, as Linux's iocg_kick_waitq(): paid off, it decays and clears (a group that
 * stopped here once its debt was paid stayed delayed for good).
 */
static bool iocg_pay_debt(struct ioc_gq *iocg, u32 hw_pay, struct ioc_now *now)
{
	s64 vbudget = (s64)(now->vnow - iocg->vtime);
	u64 abs_vpay;

	if (iocg->abs_vdebt && vbudget > 0) {
		abs_vpay = min(cost_to_abs_cost((u64)vbudget, hw_pay), iocg->abs_vdebt);
		iocg_wind_vtime(iocg, abs_cost_to_cost(abs_vpay, hw_pay));
		iocg->abs_vdebt -= abs_vpay;
	}
	if (!iocg->abs_vdebt && iocg->indebt_since) {
		iocg->stat.indebt_us += now->now - iocg->indebt_since;
		iocg->indebt_since = 0;
		propagate_weights(iocg, iocg->active, iocg->last_inuse);
	}
	if (iocg->abs_vdebt || iocg->delay)
		iocg_kick_delay(iocg, now);
	return iocg->abs_vdebt != 0;
}

/* Arm the group's timer for when the disk's vtime will cover vneeded; returns that time. */
static unsigned long iocg_arm_waitq_timer(struct ioc_gq *iocg, u64 vneeded, struct ioc_now *now)
{
	s64 vshort = (s64)(vneeded - now->vnow);
	u64 us = vshort > 0 ? (u64)vshort / max_t(u64, now->vrate, 1) + 1 : 1;
	unsigned long expires = jiffies + max_t(unsigned long, ioc_us_to_jiffies(us), 1);

	mod_timer(&iocg->waitq_timer, expires);
	return expires;
}

/*
 * While the group owes expedited writeback's cost, its dirtiers wait until the debt is
 * paid at the rate the disk's vtime runs now (blkcg_maybe_throttle_current(), as for
 * io.max's debt): the delay curve above lets a dirtier go after 250 ms, and a group
 * whose data the commits keep taking would dirty on at the disk's speed.
 */
static void iocg_note_expedited_debt(struct ioc_gq *iocg, unsigned long paid_at)
{
	if (!iocg->abs_vdebt)
		iocg->expedited_debt = false;
	blkg_note_ioc_debt(iocg_to_blkg(iocg), iocg->expedited_debt ? paid_at : 0);
}

/*
 * Serve the group: its debt, then its waiters in order, while the budget lasts; then arm
 * the timer for what is left. Linux's iocg_kick_waitq().
 */
void iocg_kick_waitq(struct ioc_gq *iocg, struct ioc_now *now)
{
	struct iocg_wait *wait, *next;
	bool woke = false;
	u32 hwa, hwi;

	hwa = iocg_debt_hweight(iocg);
	if (iocg_pay_debt(iocg, hwa, now)) {
		iocg_note_expedited_debt(
			iocg,
			iocg_arm_waitq_timer(
				iocg, iocg->vtime + abs_cost_to_cost(iocg->abs_vdebt, hwa), now));
		return;
	}
	current_hweight(iocg, NULL, &hwi); /* after the payment, which gives inuse back */
	if (iocg->expedited_debt)
		iocg_note_expedited_debt(iocg, 0);
	list_for_each_entry_safe(wait, next, &iocg->waiters, node) {
		u64 cost = abs_cost_to_cost(wait->abs_cost, hwi);

		if ((s64)(iocg->vtime + cost - now->vnow) > 0) {
			iocg_arm_waitq_timer(iocg, iocg->vtime + cost, now);
			break;
		}
		iocg_commit(iocg, wait->bio, wait->abs_cost, cost);
		list_del_init(&wait->node);
		WRITE_ONCE(wait->committed, true);
		woke = true;
	}
	if (woke)
		wake_up_all(&iocg->waitq);
	if (list_empty(&iocg->waiters) && iocg->wait_since) {
		iocg->stat.wait_us += now->now - iocg->wait_since;
		iocg->wait_since = 0;
	}
}

void iocg_waitq_timer_fn(struct timer_list *timer)
{
	struct ioc_gq *iocg = from_timer(iocg, timer, waitq_timer);
	struct ioc *ioc = iocg->ioc;
	struct ioc_now now;
	unsigned long flags;

	spin_lock_irqsave(&ioc->lock, flags);
	ioc_now(ioc, &now);
	iocg_kick_waitq(iocg, &now);
	spin_unlock_irqrestore(&ioc->lock, flags);
}

/*
 * As Linux's ioc_rqos_throttle(): metadata others may be waiting for must not wait
 * (bio_issue_as_root_blkg(); cgwb has no swap), nor a task that is being killed; nor, in
 * cgwb, writeback a commit waits for (bio_expedited()). Asked under ioc->lock:
 * blk_iocost_expedite() marks the mapping before it takes the lock. (Nor can a submitter
 * that may not sleep wait: the caller asks that before the lock makes it so.)
 */
static bool bio_must_not_wait(const struct bio *bio)
{
	return (bio->bi_opf & REQ_META) || fatal_signal_pending(current) || bio_expedited(bio);
}

/*
 * The cost becomes debt. A group going into debt drops its inuse to the minimum, lending
 * its share to the others until it has paid (Linux 6.1: debt handling owns inuse), unless
 * the debt is expedited writeback's (iocg_debt_hweight()).
 */
static void iocg_incur_debt(struct ioc_gq *iocg, u64 abs_cost, bool expedited, struct ioc_now *now)
{
	if (!iocg->abs_vdebt && abs_cost) {
		iocg->indebt_since = now->now;
		iocg->last_inuse = iocg->inuse;
		if (!expedited)
			propagate_weights(iocg, iocg->active, 0);
	}
	iocg->expedited_debt |= expedited;
	iocg->abs_vdebt += abs_cost;
	iocg->usage_vtime += abs_cost;
	iocg->abs_vusage += abs_cost;
	iocg_kick_waitq(iocg, now); /* pays what it can, arms the timer, sets the delay */
}

/*
 * Price the bio for its group, ioc->lock held: 0 if it may go now (paid, or in debt), else
 * its absolute cost, to be waited for.
 */
static u64 iocg_try_issue(struct ioc_gq *iocg, struct bio *bio, bool may_wait, struct ioc_now *now)
{
	u64 abs_cost = calc_vtime_cost(iocg, bio), cost;
	u32 hwi;

	iocg_activate(iocg, now);
	if (!abs_cost)
		return 0;
	for (;;) {
		current_hweight(iocg, NULL, &hwi);
		cost = abs_cost_to_cost(abs_cost, hwi);
		if (list_empty(&iocg->waiters) && !iocg->abs_vdebt &&
		    (s64)(iocg->vtime + cost - now->vnow) <= 0) {
			iocg_commit(iocg, bio, abs_cost, cost);
			return 0;
		}
		if (iocg->inuse == iocg->active || iocg->abs_vdebt)
			break;
		/* short while donating: take the weight back at once */
		propagate_weights(iocg, iocg->active, iocg->active);
	}
	if (!may_wait) {
		iocg_incur_debt(iocg, abs_cost, bio_expedited(bio), now);
		return 0;
	}
	return abs_cost;
}

static struct ioc_gq *bio_iocg(struct ioc *ioc, struct bio *bio)
{
	struct throtl_data *td = blk_throtl_td(bio->bi_bdev->bd_disk);

	if (!td)
		return NULL;
	return &blkg_lookup_create(bio->bi_blkcg ? bio->bi_blkcg : blkcg_root, td, GFP_NOIO)->iocg;
}

void blk_iocost_throttle(struct bio *bio)
{
	struct ioc *ioc = ioc_lookup(bio->bi_bdev->bd_disk);
	struct iocg_wait wait = { .bio = bio, .committed = false };
	struct ioc_gq *iocg;
	struct ioc_now now;
	unsigned long flags;
	bool may_wait;

	if (!ioc || !READ_ONCE(ioc->enabled) || bio_op(bio) == REQ_OP_FLUSH || !blkcg_root)
		return;
	iocg = bio_iocg(ioc, bio);
	if (!iocg)
		return;
	may_wait = !in_atomic() && !irqs_disabled();
	spin_lock_irqsave(&ioc->lock, flags);
	may_wait = may_wait && !bio_must_not_wait(bio);
	ioc_now(ioc, &now);
	if (!iocg->ioc)
		iocg_init(ioc, iocg, iocg_to_blkg(iocg), &now);
	if (!iocg->level || !(wait.abs_cost = iocg_try_issue(iocg, bio, may_wait, &now))) {
		spin_unlock_irqrestore(&ioc->lock, flags);
		return;
	}
	list_add_tail(&wait.node, &iocg->waiters);
	iocg->short_of_budget = true;
	if (!iocg->wait_since)
		iocg->wait_since = now.now;
	iocg_kick_waitq(iocg, &now);
	spin_unlock_irqrestore(&ioc->lock, flags);
	io_wait_event(iocg->waitq, READ_ONCE(wait.committed));
}

/*
 * Writeback of mapping became expedited (blkcg_expedite_begin()): its bios waiting for
 * their group's budget go now, their cost the group's debt, as if they had come in then.
 */
void blk_iocost_expedite(struct gendisk *disk, const struct address_space *mapping)
{
	struct ioc *ioc = ioc_lookup(disk);
	struct iocg_wait *wait, *next;
	struct ioc_gq *iocg;
	struct ioc_now now;
	unsigned long flags;

	if (!ioc || !READ_ONCE(ioc->enabled))
		return;
	spin_lock_irqsave(&ioc->lock, flags);
	ioc_now(ioc, &now);
	list_for_each_entry(iocg, &ioc->active_iocgs, active_list) {
		u64 abs_debt = 0;

		list_for_each_entry_safe(wait, next, &iocg->waiters, node) {
			if (bio_writeback_mapping(wait->bio) != mapping)
				continue;
			abs_debt += wait->abs_cost;
			list_del_init(&wait->node);
			WRITE_ONCE(wait->committed, true);
		}
		if (!abs_debt)
			continue;
		iocg_incur_debt(iocg, abs_debt, true, &now);
		wake_up_all(&iocg->waitq);
	}
	spin_unlock_irqrestore(&ioc->lock, flags);
}

/*
 * A request completed (Linux's ioc_rqos_done()): did it meet the latency target? Its time
 * on the queue less what its size alone takes the device, against rlat or wlat.
 */
void blk_iocost_done(struct request *rq, u64 now_ns)
{
	struct ioc *ioc = ioc_lookup(rq->q->disk);
	enum req_op op = bio_op_of(rq->cmd_flags);
	u64 on_q_ns, size_nsec;
	unsigned long flags;
	int rw;

	if (!ioc || !READ_ONCE(ioc->enabled) || op == REQ_OP_FLUSH)
		return;
	rw = op_is_write(op);
	on_q_ns = now_ns - rq->alloc_ns;
	spin_lock_irqsave(&ioc->lock, flags);
	size_nsec = calc_size_vtime_cost(ioc, rq) / VTIME_PER_NSEC;
	if (on_q_ns <= size_nsec ||
	    on_q_ns - size_nsec <= (u64)ioc->params.qos[rw ? QOS_WLAT : QOS_RLAT] * NSEC_PER_USEC)
		ioc->nr_met[rw]++;
	else
		ioc->nr_missed[rw]++;
	spin_unlock_irqrestore(&ioc->lock, flags);
}

void blk_iocost_done_bio(struct bio *bio)
{
	if (bio->bi_iocost_cost)
		__atomic_add_fetch(&bio->bi_iocg->done_vtime, bio->bi_iocost_cost, __ATOMIC_RELAXED);
}

void iocg_early_init(struct ioc_gq *iocg)
{
	INIT_LIST_HEAD(&iocg->active_list);
	INIT_LIST_HEAD(&iocg->waiters);
	init_waitqueue_head(&iocg->waitq);
	timer_setup(&iocg->waitq_timer, iocg_waitq_timer_fn, 0);
}

/* The group is freed with its blkcg: no bio can be waiting in it (bios pin the blkcg). */
void iocg_exit(struct ioc_gq *iocg)
{
	struct ioc *ioc = iocg->ioc;
	unsigned long flags;

	if (!ioc)
		return;
	spin_lock_irqsave(&ioc->lock, flags);
	WARN_ON_ONCE(!list_empty(&iocg->waiters));
	if (!list_empty(&iocg->active_list))
		iocg_deactivate(iocg);
	spin_unlock_irqrestore(&ioc->lock, flags);
	del_timer_sync(&iocg->waitq_timer);
}
