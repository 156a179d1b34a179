/*
 * The token bucket of one direction of one throttle group (Linux's throtl_slice logic):
 * slices, the allowance for the time elapsed in them, the wait for a bio that exceeds it,
 * charging and trimming. Pure arithmetic on the group: the caller holds td->lock and
 * passes the time, so the host tests can drive it with any clock.
 */
#include "blk-throttle.h"
#include <cgwb/compiler.h>
#include <cgwb/jiffies.h>

/* The longest wait reported: timers are capped far below it anyway. */
#define THROTL_WAIT_MAX ((unsigned long)MAX_JIFFY_OFFSET)

/* bps x jiffies / HZ without overflowing: saturates at U64_MAX. */
u64 throtl_bytes_allowed(u64 bps, unsigned long jiffy_elapsed)
{
	u64 whole = bps / HZ, rest = bps % HZ, a, b;

	if (whole && jiffy_elapsed > U64_MAX / whole)
		return U64_MAX;
	if (jiffy_elapsed > U64_MAX / HZ)
		return U64_MAX;
	a = whole * jiffy_elapsed;
	b = rest * jiffy_elapsed / HZ;
	return a > U64_MAX - b ? U64_MAX : a + b;
}

unsigned int throtl_ios_allowed(unsigned int iops, unsigned long jiffy_elapsed)
{
	u64 ios;

	if (jiffy_elapsed > UINT_MAX)
		return UINT_MAX;
	ios = (u64)iops * jiffy_elapsed / HZ;
	return ios > UINT_MAX ? UINT_MAX : (unsigned int)ios;
}

void throtl_start_new_slice(struct throtl_grp *tg, int rw, unsigned long now)
{
	tg->bytes_disp[rw] = 0;
	tg->io_disp[rw] = 0;
	tg->slice_start[rw] = now;
	tg->slice_end[rw] = now + THROTL_SLICE;
}

/*
 * A parent receiving a bio from a child after its own slice ended: the child waited since
 * start for its budget, and the parent had nothing to do meanwhile (it trimmed after its
 * last dispatch), so backdate the parent's slice rather than make the bio pay twice.
 */
void throtl_start_new_slice_with_credit(struct throtl_grp *tg, int rw, unsigned long start,
					unsigned long now)
{
	tg->bytes_disp[rw] = 0;
	tg->io_disp[rw] = 0;
	if (time_after_eq(start, tg->slice_start[rw]))
		tg->slice_start[rw] = start;
	tg->slice_end[rw] = now + THROTL_SLICE;
}

bool throtl_slice_used(const struct throtl_grp *tg, int rw, unsigned long now)
{
	return !time_in_range(now, tg->slice_start[rw], tg->slice_end[rw]);
}

/* Slice ends fall on slice multiples, so that trimming removes whole slices. */
void throtl_extend_slice(struct throtl_grp *tg, int rw, unsigned long end)
{
	tg->slice_end[rw] = round_up(end, THROTL_SLICE);
}

/*
 * When the allowance of the slice covers what it dispatched: never more than a slice ahead
 * for bios that waited their turn, later for debt (blk-throttle-debt.c). Rounded down.
 */
unsigned long throtl_debt_end(const struct throtl_grp *tg, int rw)
{
	unsigned long end = tg->slice_start[rw];
	u64 t;

	if (tg->bps[rw] != U64_MAX && tg->bytes_disp[rw]) {
		t = tg->bytes_disp[rw] > U64_MAX / HZ ? THROTL_WAIT_MAX :
							tg->bytes_disp[rw] * HZ / tg->bps[rw];
		end = max(end, tg->slice_start[rw] + (unsigned long)min_t(u64, t, THROTL_WAIT_MAX));
	}
	if (tg->iops[rw] != UINT_MAX && tg->io_disp[rw]) {
		t = (u64)tg->io_disp[rw] * HZ / tg->iops[rw];
		end = max(end, tg->slice_start[rw] + (unsigned long)min_t(u64, t, THROTL_WAIT_MAX));
	}
	return end;
}

/*
 * After a dispatch: forget the whole slices elapsed since slice_start along with the
 * allowance they brought, so that a group idle for a long time cannot save up a burst, and
 * pull slice_end back to one slice ahead (a long wait computed under an older, lower limit
 * must not keep the slice from ever renewing), or to where its debt is paid: a slice that
 * ended sooner would renew and forget it.
 */
void throtl_trim_slice(struct throtl_grp *tg, int rw, unsigned long now)
{
	unsigned long nr_slices;
	u64 bytes_trim;
	unsigned int io_trim;

	if (throtl_slice_used(tg, rw, now))
		return;
	throtl_extend_slice(tg, rw,
			    max_t(unsigned long, now + THROTL_SLICE, throtl_debt_end(tg, rw)));
	nr_slices = (now - tg->slice_start[rw]) / THROTL_SLICE;
	if (!nr_slices)
		return;
	bytes_trim = throtl_bytes_allowed(tg->bps[rw], THROTL_SLICE * nr_slices);
	io_trim = throtl_ios_allowed(tg->iops[rw], THROTL_SLICE * nr_slices);
	if (!bytes_trim && !io_trim)
		return;
	tg->bytes_disp[rw] = tg->bytes_disp[rw] > bytes_trim ? tg->bytes_disp[rw] - bytes_trim : 0;
	tg->io_disp[rw] = tg->io_disp[rw] > io_trim ? tg->io_disp[rw] - io_trim : 0;
	tg->slice_start[rw] += nr_slices * THROTL_SLICE;
}

/* Elapsed time of the slice rounded up to whole slices; a fresh slice counts as one. */
static unsigned long throtl_elapsed_rnd(unsigned long elapsed)
{
	return round_up(elapsed ? elapsed : 1, THROTL_SLICE);
}

bool tg_within_bps_limit(const struct throtl_grp *tg, int rw, unsigned int size, unsigned long now,
			 unsigned long *wait)
{
	unsigned long elapsed = now - tg->slice_start[rw];
	unsigned long elapsed_rnd = throtl_elapsed_rnd(elapsed);
	u64 allowed, extra, jiffy_wait;

	*wait = 0;
	if (tg->bps[rw] == U64_MAX)
		return true;
	allowed = throtl_bytes_allowed(tg->bps[rw], elapsed_rnd);
	if (tg->bytes_disp[rw] + size <= allowed)
		return true;
	extra = tg->bytes_disp[rw] + size - allowed;
	if (extra > U64_MAX / HZ)
		jiffy_wait = THROTL_WAIT_MAX;
	else
		jiffy_wait = max_t(u64, extra * HZ / tg->bps[rw], 1);
	/* the allowance was computed to the end of the slice: that part is still to come */
	*wait = (unsigned long)min_t(u64, jiffy_wait + (elapsed_rnd - elapsed), THROTL_WAIT_MAX);
	return false;
}

/*
 * The IO count rounds up from elapsed + 1 (Linux 6.x): at an exact slice boundary the plain
 * round-up would give a wait of 0 for a bio that may not go, and a dispatch timer that
 * never lets the clock move would retry it forever. The wait also covers one IO's worth of
 * time so that very low limits do not wake up every slice for nothing.
 */
bool tg_within_iops_limit(const struct throtl_grp *tg, int rw, unsigned long now, unsigned long *wait)
{
	unsigned long elapsed = now - tg->slice_start[rw];
	unsigned long elapsed_rnd = round_up(elapsed + 1, THROTL_SLICE);

	*wait = 0;
	if (tg->iops[rw] == UINT_MAX)
		return true;
	if (tg->io_disp[rw] + 1ULL <= throtl_ios_allowed(tg->iops[rw], elapsed_rnd))
		return true;
	*wait = max(elapsed_rnd - elapsed, (unsigned long)(HZ / tg->iops[rw] + 1));
	return false;
}

/*
 * A slice is renewed only when nothing waits in this direction: queued bios mean the slice
 * is in use, and it is extended to at least one slice from now instead.
 */
void throtl_slice_renew(struct throtl_grp *tg, int rw, unsigned long now)
{
	if (throtl_slice_used(tg, rw, now) && !tg->service_queue.nr_queued[rw])
		throtl_start_new_slice(tg, rw, now);
	else if (time_before(tg->slice_end[rw], now + THROTL_SLICE))
		throtl_extend_slice(tg, rw, now + THROTL_SLICE);
}

bool tg_may_dispatch_size(struct throtl_grp *tg, int rw, unsigned int size, unsigned long now,
			  unsigned long *wait)
{
	unsigned long bps_wait, iops_wait, max_wait;
	bool bps_ok, iops_ok;

	if (wait)
		*wait = 0;
	if (!tg_has_limit(tg, rw))
		return true;
	throtl_slice_renew(tg, rw, now);

	bps_ok = tg_within_bps_limit(tg, rw, size, now, &bps_wait);
	iops_ok = tg_within_iops_limit(tg, rw, now, &iops_wait);
	if (bps_ok && iops_ok)
		return true;
	max_wait = max(bps_wait, iops_wait);
	if (wait)
		*wait = max_wait;
	if (time_before(tg->slice_end[rw], now + max_wait))
		throtl_extend_slice(tg, rw, now + max_wait);
	return false;
}

/* The bio goes on at this level: pay for it, and mark it so submit_bio lets it through. */
void throtl_charge_bio(struct throtl_grp *tg, struct bio *bio)
{
	int rw = throtl_bio_dir(bio);

	tg->bytes_disp[rw] += bio->bi_size;
	tg->io_disp[rw]++;
	bio->bi_flags |= BIO_THROTTLED;
}
