/*
 * Host disks backed by an image file or a memory buffer (see filedisk.h).
 *
 * queue_rq runs under the queue lock with interrupts off, so the request is carried out
 * there (pread/pwrite into the pages, which are host memory) but completed later, from a
 * host timer, like a device interrupt. With a model, requests are served one at a time:
 * each starts when the previous one is done, or when it arrives if the disk is idle.
 */
#include "filedisk.h"
#include "host.h"
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#define FILEDISK_QUEUE_DEPTH 32

struct filedisk {
	struct gendisk *disk;
	int fd; /* -1: backed by mem */
	u8 *mem;
	u64 size;
	struct filedisk_model model;
	bool has_model;
	bool failing;
	int record_fd; /* -1: writes not recorded */
	u64 busy_until_ns;
	struct filedisk_stats stats;
};

struct filedisk_rq {
	struct host_timer timer;
	struct request *rq;
	struct filedisk *fdisk;
	int status;
};

static int filedisk_record(struct filedisk *fdisk, const void *buf, u64 pos, u32 len)
{
	struct filedisk_write w = { .pos = pos, .len = len };

	if (write(fdisk->record_fd, &w, sizeof(w)) != sizeof(w) ||
	    write(fdisk->record_fd, buf, len) != (ssize_t)len)
		return -EIO;
	return 0;
}

static int filedisk_rw(struct filedisk *fdisk, bool write, void *buf, u64 pos, u32 len)
{
	if (pos + len > fdisk->size)
		return -EIO;
	if (write && fdisk->record_fd >= 0 && filedisk_record(fdisk, buf, pos, len))
		return -EIO;
	if (fdisk->fd < 0) {
		if (write)
			memcpy(fdisk->mem + pos, buf, len);
		else
			memcpy(buf, fdisk->mem + pos, len);
		return 0;
	}
	ssize_t n = write ? pwrite(fdisk->fd, buf, len, (off_t)pos) :
			    pread(fdisk->fd, buf, len, (off_t)pos);
	return n == (ssize_t)len ? 0 : -EIO;
}

/* Move the request's data between its pages and the backing store. */
static int filedisk_transfer(struct filedisk *fdisk, struct request *rq, bool write)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;

	for (struct bio *bio = rq->bio; bio; bio = bio->bi_next) {
		for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
			struct bio_vec *bv = &bio->bi_io_vec[i];
			int err = filedisk_rw(fdisk, write,
					      (char *)page_address(bv->bv_page) + bv->bv_offset,
					      pos, bv->bv_len);
			if (err)
				return err;
			pos += bv->bv_len;
		}
	}
	return 0;
}

static void filedisk_complete(struct host_timer *timer)
{
	struct filedisk_rq *frq = container_of(timer, struct filedisk_rq, timer);
	struct request_queue *q = frq->fdisk->disk->queue;

	blk_mq_end_request(frq->rq, frq->status);
	blk_mq_run_queue(q); /* a flush sequence may have put the request back on the queue */
}

/* When a request of bytes arriving now is done, per the model. */
static u64 filedisk_done_at(struct filedisk *fdisk, unsigned int bytes)
{
	u64 now = host_now_ns();
	u64 start = max(now, fdisk->busy_until_ns);
	u64 service = fdisk->model.latency_ns;

	if (!fdisk->has_model)
		return now;
	if (fdisk->model.bandwidth_bps)
		service += (u64)bytes * NSEC_PER_SEC / fdisk->model.bandwidth_bps;
	fdisk->busy_until_ns = start + service;
	return fdisk->busy_until_ns;
}

static void filedisk_account(struct filedisk *fdisk, enum req_op op, unsigned int bytes)
{
	struct filedisk_stats *st = &fdisk->stats;

	if (op == REQ_OP_READ) {
		st->reads++;
		st->bytes_read += bytes;
	} else if (op == REQ_OP_WRITE) {
		st->writes++;
		st->bytes_written += bytes;
	} else {
		st->flushes++;
	}
	st->max_request_bytes = max(st->max_request_bytes, bytes);
}

static int filedisk_queue_rq(struct request_queue *q, struct request *rq)
{
	struct filedisk *fdisk = q->queuedata;
	struct filedisk_rq *frq = rq->driver_data;
	enum req_op op = req_op(rq);
	unsigned int bytes = blk_rq_bytes(rq);

	frq->rq = rq;
	frq->fdisk = fdisk;
	frq->status = 0;
	if (fdisk->failing)
		frq->status = -EIO;
	else if (op == REQ_OP_READ || op == REQ_OP_WRITE)
		frq->status = filedisk_transfer(fdisk, rq, op == REQ_OP_WRITE);
	else if (op == REQ_OP_FLUSH && fdisk->fd >= 0)
		frq->status = fdatasync(fdisk->fd) ? -EIO : 0;
	filedisk_account(fdisk, op, bytes);
	host_timer_init(&frq->timer, filedisk_complete, 0);
	host_timer_start(&frq->timer, filedisk_done_at(fdisk, bytes));
	return 0;
}

static const struct blk_mq_ops filedisk_ops = {
	.queue_rq = filedisk_queue_rq,
};

static struct gendisk *filedisk_register(struct filedisk *fdisk, const char *name, bool read_only,
					 const struct filedisk_model *model)
{
	struct gendisk *disk = blk_alloc_disk(&filedisk_ops, FILEDISK_QUEUE_DEPTH,
					      sizeof(struct filedisk_rq), fdisk);
	static int next_minor;

	if (!disk)
		return NULL;
	fdisk->record_fd = -1;
	if (model) {
		fdisk->model = *model;
		fdisk->has_model = true;
	}
	fdisk->disk = disk;
	strlcpy(disk->disk_name, name, sizeof(disk->disk_name));
	disk->major = VIRTBLK_MAJOR; /* numbered like the virtio disks they stand in for */
	disk->first_minor = next_minor;
	next_minor += VIRTBLK_MINORS;
	disk->capacity = fdisk->size >> SECTOR_SHIFT;
	disk->read_only = read_only;
	disk->has_flush = model && model->write_cache;
	disk->private_data = fdisk;
	if (add_disk(disk)) {
		pr_err("filedisk: cannot add %s\n", name);
		return NULL;
	}
	return disk;
}

struct gendisk *filedisk_add(const char *name, const char *path, bool read_only,
			     const struct filedisk_model *model)
{
	struct filedisk *fdisk = kzalloc(sizeof(*fdisk), GFP_KERNEL);
	struct stat st;

	if (!fdisk)
		return NULL;
	fdisk->fd = open(path, read_only ? O_RDONLY : O_RDWR);
	if (fdisk->fd < 0 || fstat(fdisk->fd, &st)) {
		pr_err("filedisk: cannot open %s\n", path);
		return NULL;
	}
	fdisk->size = (u64)st.st_size & ~(u64)(SECTOR_SIZE - 1);
	return filedisk_register(fdisk, name, read_only, model);
}

struct gendisk *filedisk_add_mem(const char *name, void *data, size_t size, bool read_only,
				 const struct filedisk_model *model)
{
	struct filedisk *fdisk = kzalloc(sizeof(*fdisk), GFP_KERNEL);

	if (!fdisk)
		return NULL;
	fdisk->fd = -1;
	fdisk->mem = data;
	fdisk->size = (u64)size & ~(u64)(SECTOR_SIZE - 1);
	return filedisk_register(fdisk, name, read_only, model);
}

void filedisk_get_stats(struct gendisk *disk, struct filedisk_stats *st)
{
	*st = ((struct filedisk *)disk->private_data)->stats;
}

void filedisk_reset_stats(struct gendisk *disk)
{
	memset(&((struct filedisk *)disk->private_data)->stats, 0, sizeof(struct filedisk_stats));
}

void filedisk_set_failing(struct gendisk *disk, bool fail)
{
	((struct filedisk *)disk->private_data)->failing = fail;
}

int filedisk_record_writes(struct gendisk *disk, const char *path)
{
	struct filedisk *fdisk = disk->private_data;

	if (fdisk->record_fd >= 0)
		close(fdisk->record_fd);
	fdisk->record_fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
	return path && fdisk->record_fd < 0 ? -EIO : 0;
}
