/*
 * Laptop mode (Linux's laptop_mode, mm/page-writeback.c): a disk that spun up for some IO
 * is used again before it spins down, then left alone.
 *
 * - /proc/sys/vm/laptop_mode = N seconds (0: off, the default) turns it on.
 * - Dirtiers no longer start background writeback at the background threshold
 *   (balance_dirty_pages()): dirty pages wait, up to the freerun ceiling, where the
 *   flusher is woken as always.
 * - Every request that completes on a disk (re)arms its bdi's timer N seconds on; when
 *   the disk has been quiet that long, every wb of the bdi with dirty IO writes all it
 *   holds (WB_REASON_LAPTOP_TIMER), while the disk is likely still spinning.
 * - sync(2) leaves nothing for the timers to do: it stops them.
 *
 * The timer is armed from interrupt context (the block layer's disk hook, fs/init.c); its
 * function only queues flusher work. A bdi's timer is stopped before the bdi goes.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/jiffies.h>
#include <cgwb/timer.h>

int laptop_mode; /* jiffies; 0: off */

static void laptop_mode_timer_fn(struct timer_list *t)
{
	struct backing_dev_info *bdi = from_timer(bdi, t, laptop_mode_wb_timer);

	flusher_hooks()->wakeup_flusher_threads_bdi(bdi, WB_REASON_LAPTOP_TIMER);
}

void bdi_laptop_mode_init(struct backing_dev_info *bdi)
{
	timer_setup(&bdi->laptop_mode_wb_timer, laptop_mode_timer_fn, 0);
}

void bdi_laptop_mode_exit(struct backing_dev_info *bdi)
{
	del_timer_sync(&bdi->laptop_mode_wb_timer);
}

void laptop_io_completion(struct backing_dev_info *bdi)
{
	int delay = READ_ONCE(laptop_mode);

	if (delay)
		mod_timer(&bdi->laptop_mode_wb_timer, jiffies + (unsigned long)delay);
}

static void laptop_stop_timer(struct backing_dev_info *bdi, void *arg)
{
	(void)arg;
	del_timer(&bdi->laptop_mode_wb_timer);
}

void laptop_sync_completion(void)
{
	for_each_bdi(laptop_stop_timer, NULL);
}
