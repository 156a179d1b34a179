/*
 * Block layer logic against a fake driver that records what it is given and completes it
 * when the test says: segment counting, merging, plugging, splitting, the queue-depth
 * limit and its FIFO hand-over, the flush sequence, error isolation and statistics.
 */
#include <criterion/criterion.h>
#include <cgwb/blkdev.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "host.h"
#include "../../../block/blk.h"

#define MAX_SEEN 64

struct seen {
	enum req_op op;
	sector_t sector;
	unsigned int bytes, segs;
	struct request *rq;
	bool done;
};

static struct {
	struct gendisk *disk;
	struct seen seen[MAX_SEEN];
	unsigned int nr_seen, in_driver, capacity_busy, commits;
	sector_t fail_sector; /* a request covering it fails; 0: none */
} fd;

static int fake_queue_rq(struct request_queue *q, struct request *rq)
{
	struct blk_seg segs[64];

	if (fd.capacity_busy && fd.in_driver >= fd.capacity_busy)
		return -EBUSY;
	cr_assert_lt(fd.nr_seen, MAX_SEEN);
	fd.seen[fd.nr_seen++] =
		(struct seen){ req_op(rq),
			       blk_rq_pos(rq),
			       blk_rq_bytes(rq),
			       req_op(rq) == REQ_OP_FLUSH ? 0 : blk_rq_map_sg(rq, segs, 64),
			       rq,
			       false };
	fd.in_driver++;
	return 0;
}

static void fake_commit(struct request_queue *q)
{
	fd.commits++;
}

static const struct blk_mq_ops fake_ops = { .queue_rq = fake_queue_rq, .commit_rqs = fake_commit };

/* Complete every request the driver holds, as its interrupt handler would. */
static void complete_all_requests(void)
{
	for (unsigned int i = 0; i < fd.nr_seen; i++) {
		struct seen *s = &fd.seen[i];
		if (s->done)
			continue;
		s->done = true;
		fd.in_driver--;
		bool fail = fd.fail_sector && s->op != REQ_OP_FLUSH && s->sector <= fd.fail_sector &&
			    fd.fail_sector < s->sector + s->bytes / 512;
		blk_mq_end_request(s->rq, fail ? -EIO : 0);
	}
	blk_mq_run_queue(fd.disk->queue);
}

static struct gendisk *make_disk(unsigned int depth, unsigned int max_sectors,
				 unsigned int max_segs, unsigned int max_seg_size)
{
	struct gendisk *disk = blk_alloc_disk(&fake_ops, depth, 0, NULL);
	struct queue_limits lim = {
		.logical_block_size = 512,
		.max_hw_sectors = max_sectors,
		.max_segments = max_segs,
		.max_segment_size = max_seg_size,
	};

	cr_assert(disk);
	blk_queue_set_limits(disk->queue, &lim);
	strcpy(disk->disk_name, "fda");
	disk->major = VIRTBLK_MAJOR;
	disk->capacity = 1 << 20;
	disk->has_flush = true;
	cr_assert_eq(add_disk(disk), 0);
	fd.disk = disk;
	return disk;
}

static void setup(void)
{
	host_platform_init(64 << 20);
	memset(&fd, 0, sizeof(fd));
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(blk, .init = setup, .fini = teardown);

static int statuses[64];
static int nr_ended;

static void record_end(struct bio *bio)
{
	statuses[(uintptr_t)bio->bi_private] = bio->bi_status;
	nr_ended++;
	bio_put(bio);
}

/* A bio of nr pages starting at page first of block, every stride-th page. */
static struct bio *make_bio(unsigned int opf, sector_t sector, struct page *block,
			    unsigned int first, unsigned int nr, unsigned int stride, uintptr_t id)
{
	struct bio *bio = bio_alloc(fd.disk->part0, (unsigned short)nr, opf, GFP_KERNEL);

	cr_assert(bio);
	bio->bi_sector = sector;
	bio->bi_end_io = record_end;
	bio->bi_private = (void *)id;
	for (unsigned int i = 0; i < nr; i++)
		cr_assert_eq(bio_add_page(bio, block + first + i * stride, PAGE_SIZE, 0), PAGE_SIZE);
	statuses[id] = 1; /* not ended */
	return bio;
}

Test(blk, segments_follow_physical_contiguity)
{
	struct gendisk *disk = make_disk(4, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 4);
	const struct queue_limits *lim = &disk->queue->limits;

	struct bio *contig = make_bio(REQ_OP_READ, 0, block, 0, 4, 1, 0);
	struct bio *sparse = make_bio(REQ_OP_READ, 0, block, 0, 4, 2, 1);
	cr_assert_eq(bio_nr_segments(contig, lim), 1);
	cr_assert_eq(bio_nr_segments(sparse, lim), 4);
	disk->queue->limits.max_segment_size = 8192;
	cr_assert_eq(bio_nr_segments(contig, lim), 2, "split at max_segment_size");
	bio_put(contig);
	bio_put(sparse);
	__free_pages(block, 4);
}

Test(blk, merge_rules)
{
	make_disk(4, 64, 4, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 5);
	struct request rq = { .q = fd.disk->queue };
	struct bio *first = make_bio(REQ_OP_WRITE, 100, block, 0, 2, 1, 0);
	blk_rq_init_from_bio(&rq, first, 1);

	struct bio *next = make_bio(REQ_OP_WRITE, 116, block, 2, 1, 1, 1);
	cr_assert_eq(blk_try_merge(&rq, next, 1), BLK_MERGE_BACK);
	struct bio *prev = make_bio(REQ_OP_WRITE, 92, block, 8, 1, 1, 2);
	cr_assert_eq(blk_try_merge(&rq, prev, 1), BLK_MERGE_FRONT);
	struct bio *gap = make_bio(REQ_OP_WRITE, 124, block, 3, 1, 1, 3);
	cr_assert_eq(blk_try_merge(&rq, gap, 1), BLK_MERGE_NONE, "not adjacent");
	struct bio *read = make_bio(REQ_OP_READ, 116, block, 2, 1, 1, 4);
	cr_assert_eq(blk_try_merge(&rq, read, 1), BLK_MERGE_NONE, "other direction");
	struct bio *fua = make_bio(REQ_OP_WRITE | REQ_FUA, 116, block, 2, 1, 1, 5);
	cr_assert_eq(blk_try_merge(&rq, fua, 1), BLK_MERGE_NONE, "FUA stays alone");
	struct bio *big = make_bio(REQ_OP_WRITE, 116, block, 2, 8, 1, 6);
	cr_assert_eq(blk_try_merge(&rq, big, 1), BLK_MERGE_NONE, "16 + 64 sectors > 64");
	struct bio *cg = make_bio(REQ_OP_WRITE, 116, block, 2, 1, 1, 7);
	cg->bi_blkcg = (struct blkcg *)0x1;
	cr_assert_eq(blk_try_merge(&rq, cg, 1), BLK_MERGE_NONE, "other io cgroup");
	struct bio *far = make_bio(REQ_OP_WRITE, 116, block, 20, 1, 1, 8);
	rq.nr_segments = 4;
	cr_assert_eq(blk_try_merge(&rq, far, 1), BLK_MERGE_NONE, "a fifth segment");
	cr_assert_eq(blk_try_merge(&rq, next, 1), BLK_MERGE_BACK, "joins the last segment");

	blk_rq_apply_merge(&rq, next, BLK_MERGE_BACK);
	cr_assert_eq(rq.nr_bytes, 3 * PAGE_SIZE);
	cr_assert_eq(rq.nr_segments, 4);
	rq.bio = rq.biotail = NULL;
	first->bi_next = NULL;
	bio_put(first);
	bio_put(next);
	bio_put(prev);
	bio_put(gap);
	bio_put(read);
	bio_put(fua);
	bio_put(big);
	bio_put(cg);
	bio_put(far);
	__free_pages(block, 5);
}

/* 256 page writes in a row under a plug become one 1 MiB request. */
Test(blk, plug_merges_page_writes_into_large_requests)
{
	make_disk(8, 2048, 128, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 8);
	struct blk_plug plug;

	blk_start_plug(&plug);
	for (unsigned int i = 0; i < 256; i++)
		submit_bio(make_bio(REQ_OP_WRITE, 8 * i, block, i, 1, 1, i % 64));
	cr_assert_eq(fd.nr_seen, 0, "nothing leaves before the plug ends");
	blk_finish_plug(&plug);
	cr_assert_eq(fd.nr_seen, 1);
	cr_assert_eq(fd.seen[0].bytes, 1 << 20);
	cr_assert_eq(fd.seen[0].segs, 1);
	cr_assert_eq(fd.commits, 1, "one notification for the batch");
	complete_all_requests();
	cr_assert_eq(nr_ended, 256);
	struct disk_stats st;
	disk_stats_read(fd.disk, &st);
	cr_assert_eq(st.ios[1], 1);
	cr_assert_eq(st.merges[1], 255);
	cr_assert_eq(st.sectors[1], 2048);
	cr_assert_eq(st.in_flight[1], 0);
	__free_pages(block, 8);
}

/*
 * As Linux's BLK_PLUG_FLUSH_SIZE: a run of 128 KiB or more goes down once another run
 * starts, small runs wait for the plug's end (a writeback pass keeps its metadata together).
 */
Test(blk, plug_sends_a_large_run_when_the_next_starts)
{
	make_disk(8, 4096, 128, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 6);
	struct blk_plug plug;

	blk_start_plug(&plug);
	for (unsigned int i = 0; i < 31; i++)
		submit_bio(make_bio(REQ_OP_WRITE, 8 * i, block, i, 1, 1, i));
	submit_bio(make_bio(REQ_OP_WRITE, 1000, block, 40, 1, 1, 40));
	cr_assert_eq(fd.nr_seen, 0, "a run of 124 KiB waits with the next");
	submit_bio(make_bio(REQ_OP_WRITE, 2000, block, 41, 1, 1, 41));
	cr_assert_eq(fd.nr_seen, 0, "4 KiB runs wait");
	for (unsigned int i = 0; i < 32; i++)
		submit_bio(make_bio(REQ_OP_WRITE, 3000 + 8 * i, block, i, 1, 1, i));
	cr_assert_eq(fd.nr_seen, 0, "the 128 KiB run may still grow");
	submit_bio(make_bio(REQ_OP_WRITE, 4000, block, 42, 1, 1, 42));
	cr_assert_eq(fd.nr_seen, 4, "every run before the new one went down");
	cr_assert_eq(fd.seen[3].bytes, 128 << 10);
	blk_finish_plug(&plug);
	cr_assert_eq(fd.nr_seen, 5);
	complete_all_requests();
	__free_pages(block, 6);
}

static DECLARE_WAIT_QUEUE_HEAD(plugged_sleeper_wq);
static bool plugged_sleeper_go;

/* Plugs a write, then sleeps without finishing the plug (as a flusher blocked on a lock). */
static int plugged_sleeper(void *arg)
{
	struct blk_plug plug;

	blk_start_plug(&plug);
	submit_bio(make_bio(REQ_OP_WRITE, 0, arg, 0, 1, 1, 0));
	wait_event(plugged_sleeper_wq, READ_ONCE(plugged_sleeper_go));
	blk_finish_plug(&plug);
	return 0;
}

/*
 * A task that goes to sleep sends what its plug holds, as Linux's sched_submit_work():
 * whoever waits for that bio may be what the sleeper waits for.
 */
Test(blk, sleeping_task_sends_its_plug)
{
	make_disk(8, 2048, 128, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 0);
	struct task_struct *t = kthread_run(plugged_sleeper, block, "plugged");

	host_run_until_idle();
	cr_assert_eq(fd.nr_seen, 1, "the plugged write reached the driver when its task slept");
	complete_all_requests();
	cr_assert_eq(nr_ended, 1);
	WRITE_ONCE(plugged_sleeper_go, true);
	wake_up(&plugged_sleeper_wq);
	cr_assert_eq(kthread_join(t), 0);
	cr_assert_eq(fd.nr_seen, 1, "nothing more left at the plug's end");
	__free_pages(block, 0);
}

/* Without a plug, bios that find the device busy merge while they wait. */
Test(blk, busy_device_merges_waiting_bios)
{
	make_disk(8, 2560, 128, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 4);

	fd.capacity_busy = 1;
	for (unsigned int i = 0; i < 9; i++)
		submit_bio(make_bio(REQ_OP_READ, 8 * i, block, i, 1, 1, i));
	cr_assert_eq(fd.nr_seen, 1);
	complete_all_requests();
	cr_assert_eq(fd.nr_seen, 2);
	cr_assert_eq(fd.seen[1].sector, 8);
	cr_assert_eq(fd.seen[1].bytes, 8 * PAGE_SIZE);
	complete_all_requests();
	cr_assert_eq(nr_ended, 9);
	__free_pages(block, 4);
}

static struct page *waiter_block;
static int order_of_start[4], nr_started;

static int waiter_fn(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	submit_bio(make_bio(REQ_OP_READ, 1000 * id, waiter_block, (unsigned int)id, 1, 1, id));
	order_of_start[nr_started++] = (int)id;
	return 0;
}

/* Depth 1: later submitters wait and get the request in the order they came. */
Test(blk, queue_depth_waiters_served_in_order)
{
	make_disk(1, 2560, 128, 1U << 30);
	waiter_block = alloc_pages(GFP_KERNEL, 3);
	struct task_struct *t[4];

	for (uintptr_t i = 0; i < 4; i++) {
		t[i] = kthread_run(waiter_fn, (void *)i, "w%lu", (unsigned long)i);
		host_run_until_idle();
	}
	cr_assert_eq(fd.nr_seen, 1);
	cr_assert_eq(nr_started, 1, "three wait for the one request");
	for (int round = 1; round < 4; round++) {
		complete_all_requests();
		host_run_until_idle();
		cr_assert_eq(fd.nr_seen, (unsigned int)round + 1);
		cr_assert_eq(fd.seen[round].sector, 1000 * (sector_t)round, "FIFO");
	}
	complete_all_requests();
	for (int i = 0; i < 4; i++)
		cr_assert_eq(kthread_join(t[i]), 0);
	cr_assert_eq(nr_ended, 4);
	__free_pages(waiter_block, 3);
}

Test(blk, refused_before_the_device)
{
	struct gendisk *disk = make_disk(4, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 1);

	submit_bio(make_bio(REQ_OP_READ, disk->capacity - 4, block, 0, 1, 1, 0));
	cr_assert_eq(statuses[0], -EINVAL, "past the end");
	struct bio *odd = make_bio(REQ_OP_READ, 0, block, 0, 1, 1, 1);
	odd->bi_io_vec[0].bv_len = 1000;
	odd->bi_size = 1000;
	submit_bio(odd);
	cr_assert_eq(statuses[1], -EINVAL, "not whole sectors");
	disk->read_only = true;
	submit_bio(make_bio(REQ_OP_WRITE, 0, block, 0, 1, 1, 2));
	cr_assert_eq(statuses[2], -EROFS);
	cr_assert(host_log_contains("read-only"));
	cr_assert_eq(fd.nr_seen, 0);
	__free_pages(block, 1);
}

/* A merged request that fails is retried bio by bio: only the bad one sees -EIO. */
Test(blk, device_error_fails_only_its_bio)
{
	make_disk(8, 2560, 128, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 2);
	struct blk_plug plug;

	fd.fail_sector = 8 * 2 + 3; /* inside the third bio */
	blk_start_plug(&plug);
	for (unsigned int i = 0; i < 4; i++)
		submit_bio(make_bio(REQ_OP_WRITE, 8 * i, block, i, 1, 1, i));
	blk_finish_plug(&plug);
	cr_assert_eq(fd.nr_seen, 1);
	complete_all_requests();
	host_run_until_idle(); /* the retry runs from a work item */
	cr_assert_eq(fd.nr_seen, 5);
	complete_all_requests();
	cr_assert_eq(statuses[0], 0);
	cr_assert_eq(statuses[1], 0);
	cr_assert_eq(statuses[2], -EIO);
	cr_assert_eq(statuses[3], 0);
	__free_pages(block, 2);
}

static int parent_status = 1, parent_ends;

static void parent_end(struct bio *bio)
{
	parent_status = bio->bi_status;
	parent_ends++;
}

Test(blk, oversized_bio_is_split_and_completes_once)
{
	make_disk(8, 2560, 2, 1U << 30);
	struct page *block = alloc_pages(GFP_KERNEL, 4);
	struct bio *bio = make_bio(REQ_OP_READ, 64, block, 0, 8, 2, 0);

	bio->bi_end_io = parent_end;
	submit_bio(bio);
	cr_assert_eq(fd.nr_seen, 4, "eight scattered pages, two segments each");
	for (unsigned int i = 0; i < 4; i++) {
		cr_assert_eq(fd.seen[i].sector, 64 + 16 * i);
		cr_assert_eq(fd.seen[i].segs, 2);
	}
	cr_assert_eq(parent_ends, 0);
	complete_all_requests();
	cr_assert_eq(parent_ends, 1);
	cr_assert_eq(parent_status, 0);
	bio_put(bio);
	__free_pages(block, 4);
}

Test(blk, preflush_and_fua_sequence)
{
	make_disk(4, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 0);

	submit_bio(make_bio(REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA, 8, block, 0, 1, 1, 0));
	cr_assert_eq(fd.nr_seen, 1);
	cr_assert_eq(fd.seen[0].op, REQ_OP_FLUSH);
	complete_all_requests();
	cr_assert_eq(fd.nr_seen, 2);
	cr_assert_eq(fd.seen[1].op, REQ_OP_WRITE);
	cr_assert_eq(fd.seen[1].bytes, PAGE_SIZE);
	cr_assert_eq(statuses[0], 1, "not done before the post-flush");
	complete_all_requests();
	cr_assert_eq(fd.seen[2].op, REQ_OP_FLUSH);
	complete_all_requests();
	cr_assert_eq(statuses[0], 0);
	struct disk_stats st;
	disk_stats_read(fd.disk, &st);
	cr_assert_eq(st.ios[3], 2);
	cr_assert_eq(st.ios[1], 1);

	fd.disk->has_flush = false; /* write-through: flushes are no-ops */
	struct bio *flush = bio_alloc(fd.disk->part0, 0, REQ_OP_FLUSH, GFP_KERNEL);
	cr_assert_eq(submit_bio_wait(flush), 0);
	bio_put(flush);
	cr_assert_eq(fd.nr_seen, 3);
	__free_pages(block, 0);
}

Test(blk, stats_in_flight_and_busy_time)
{
	make_disk(4, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 1);
	struct disk_stats st;

	submit_bio(make_bio(REQ_OP_READ, 0, block, 0, 1, 1, 0));
	submit_bio(make_bio(REQ_OP_WRITE, 80, block, 1, 1, 1, 1));
	disk_stats_read(fd.disk, &st);
	cr_assert_eq(st.in_flight[0], 1);
	cr_assert_eq(st.in_flight[1], 1);
	host_run_for(5 * NSEC_PER_MSEC);
	complete_all_requests();
	disk_stats_read(fd.disk, &st);
	cr_assert_eq(st.in_flight[0] + st.in_flight[1], 0);
	cr_assert_eq(st.io_ticks_ns, 5 * NSEC_PER_MSEC);
	cr_assert_eq(st.nsecs[0], 5 * NSEC_PER_MSEC);
	cr_assert_eq(st.time_in_queue_ns, 10 * NSEC_PER_MSEC);
	char line[256];
	disk_stat_format(fd.disk, line, sizeof(line));
	cr_assert_str_eq(line, "       1        0        8        5        1        0        8     "
			       "   5"
			       "        0        5       10        0        0        0        0    "
			       "    0"
			       "        0\n");
	diskstats_format(fd.disk, line, sizeof(line));
	cr_assert_str_eq(line, " 254       0 fda 1 0 8 5 1 0 8 5 0 5 10 0 0 0 0 0 0\n");
	__free_pages(block, 1);
}

Test(blk, bio_vecs_must_hold_whole_sectors)
{
	make_disk(4, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 1);
	struct bio *bio = bio_alloc(fd.disk->part0, 2, REQ_OP_WRITE, GFP_KERNEL);

	bio->bi_end_io = record_end;
	bio->bi_private = (void *)0;
	statuses[0] = 1;
	bio_add_page(bio, block, 700, 0);
	bio_add_page(bio, block + 1, 324, 0); /* 1024 bytes in all, split mid-sector */
	submit_bio(bio);
	cr_assert_eq(statuses[0], -EINVAL);
	cr_assert_eq(fd.nr_seen, 0);
	__free_pages(block, 1);
}

/* cgwb.power_cut=2: the second request that writes is the last one to reach the device. */
Test(blk, power_cut_holds_everything_after_n_writes)
{
	make_disk(8, 2560, 128, 65536);
	struct page *block = alloc_pages(GFP_KERNEL, 0);
	struct disk_stats st;

	blk_set_power_cut(2);
	submit_bio(make_bio(REQ_OP_WRITE, 8, block, 0, 1, 1, 0));
	submit_bio(make_bio(REQ_OP_READ, 100, block, 0, 1, 1, 1));
	cr_assert_eq(fd.nr_seen, 2, "reads do not count");
	complete_all_requests();
	/* the preflush step is the second write; its data would be the third */
	submit_bio(make_bio(REQ_OP_WRITE | REQ_PREFLUSH, 16, block, 0, 1, 1, 2));
	cr_assert_eq(fd.nr_seen, 3);
	cr_assert_eq(fd.seen[2].op, REQ_OP_FLUSH);
	complete_all_requests();
	submit_bio(make_bio(REQ_OP_READ, 200, block, 0, 1, 1, 3));
	complete_all_requests();
	cr_assert_eq(fd.nr_seen, 3, "nothing reaches the device after the cut, reads neither");
	cr_assert_eq(statuses[0], 0);
	cr_assert_eq(statuses[1], 0);
	cr_assert_eq(statuses[2], 1, "held, never completed");
	cr_assert_eq(statuses[3], 1);
	disk_stats_read(fd.disk, &st);
	cr_assert_eq(st.ios[1], 1);
	cr_assert_eq(st.ios[3], 1);
}
