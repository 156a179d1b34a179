/*
 * Per-disk IO statistics with Linux's meaning (Documentation/admin-guide/iostats.rst):
 * a request counts in ios/sectors/nsecs of its direction when it completes, its time
 * running from allocation (queueing included); merges count bios that joined a request;
 * in_flight counts data requests from allocation to completion; io_ticks is the time with
 * at least one in flight; flushes count apart and not in flight. All under q->lock.
 */
#include "blk.h"
#include <cgwb/string.h>
#include <cgwb/jiffies.h>
#include <cgwb/bug.h>

#define STAT_READ 0
#define STAT_WRITE 1
#define STAT_DISCARD 2
#define STAT_FLUSH 3

static int stat_dir(unsigned int opf)
{
	switch (bio_op_of(opf)) {
	case REQ_OP_READ:
		return STAT_READ;
	case REQ_OP_WRITE:
		return STAT_WRITE;
	default:
		return STAT_FLUSH;
	}
}

static unsigned int total_in_flight(const struct disk_stats *st)
{
	return st->in_flight[0] + st->in_flight[1];
}

void blk_account_io_start(struct request *rq)
{
	struct disk_stats *st = &rq->q->disk->stats;
	int dir = stat_dir(rq->cmd_flags);

	rq->alloc_ns = ktime_get_ns();
	if (dir == STAT_FLUSH)
		return;
	if (!total_in_flight(st))
		st->busy_since_ns = rq->alloc_ns;
	st->in_flight[dir]++;
}

void blk_account_io_merge(struct request_queue *q, const struct bio *bio)
{
	q->disk->stats.merges[stat_dir(bio->bi_opf)]++;
}

void blk_account_flush_step(struct request *rq, u64 now)
{
	struct disk_stats *st = &rq->q->disk->stats;

	st->ios[STAT_FLUSH]++;
	st->nsecs[STAT_FLUSH] += now - rq->start_ns;
}

void blk_account_io_done(struct request *rq, u64 now)
{
	struct disk_stats *st = &rq->q->disk->stats;
	int dir = stat_dir(rq->cmd_flags);
	u64 took = now - rq->alloc_ns;

	st->ios[dir]++;
	st->nsecs[dir] += took;
	st->time_in_queue_ns += took;
	if (dir == STAT_FLUSH)
		return;
	st->sectors[dir] += rq->nr_bytes >> SECTOR_SHIFT;
	BUG_ON(!st->in_flight[dir]);
	st->in_flight[dir]--;
	if (!total_in_flight(st))
		st->io_ticks_ns += now - st->busy_since_ns;
}

void disk_stats_read(struct gendisk *disk, struct disk_stats *out)
{
	unsigned long flags;

	spin_lock_irqsave(&disk->queue->lock, flags);
	*out = disk->stats;
	spin_unlock_irqrestore(&disk->queue->lock, flags);
	if (total_in_flight(out))
		out->io_ticks_ns += ktime_get_ns() - out->busy_since_ns;
}

static unsigned int ms(u64 ns)
{
	return (unsigned int)(ns / NSEC_PER_MSEC);
}

/* The 17 numbers both files share, in Linux's order, width w each, then a newline. */
static int stat_fields(const struct disk_stats *st, char *buf, size_t size, int w)
{
	const u64 v[17] = {
		st->ios[0],
		st->merges[0],
		st->sectors[0],
		ms(st->nsecs[0]),
		st->ios[1],
		st->merges[1],
		st->sectors[1],
		ms(st->nsecs[1]),
		total_in_flight(st),
		ms(st->io_ticks_ns),
		ms(st->time_in_queue_ns),
		st->ios[2],
		st->merges[2],
		st->sectors[2],
		ms(st->nsecs[2]),
		st->ios[3],
		ms(st->nsecs[3]),
	};
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		n += scnprintf(buf + n, size - (size_t)n, i ? " %*llu" : "%*llu", w, v[i]);
	return n + scnprintf(buf + n, size - (size_t)n, "\n");
}

int disk_stat_format(struct gendisk *disk, char *buf, size_t size)
{
	struct disk_stats st;

	disk_stats_read(disk, &st);
	return stat_fields(&st, buf, size, 8);
}

int diskstats_format(struct gendisk *disk, char *buf, size_t size)
{
	struct disk_stats st;
	int n;

	disk_stats_read(disk, &st);
	n = scnprintf(buf, size, "%4d %7d %s ", disk->major, disk->first_minor, disk->disk_name);
	return n + stat_fields(&st, buf + n, size - (size_t)n, 1);
}
