/*
 * virtio-blk (VIRTIO 1.1 specification, 5.2): one request queue per disk on virtqueue 0. Each
 * request is a device-readable header, the data segments, and a device-writable status byte; with
 * indirect descriptors the whole chain sits in the request's own table page and takes one ring
 * slot, so the ring holds as many requests as it has entries. Completions arrive by interrupt; the
 * block layer is told once per interrupt to refill the ring.
 */
#define pr_fmt(fmt) "virtio_blk: " fmt

#include "virtio_pci.h"
#include <cgwb/blkdev.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

#define VIRTBLK_MAX_RING 256u
#define VIRTBLK_QUEUE_DEPTH 128u
#define VIRTBLK_INDIRECT_DESCS (PAGE_SIZE / sizeof(struct vring_desc))
#define VIRTBLK_MAX_SECTORS 2560 /* Linux's default max_sectors_kb: 1280 */

#define VIRTBLK_FEATURES                                                                              \
	((1ULL << VIRTIO_F_VERSION_1) | (1ULL << VIRTIO_BLK_F_SIZE_MAX) |                             \
	 (1ULL << VIRTIO_BLK_F_SEG_MAX) | (1ULL << VIRTIO_BLK_F_BLK_SIZE) |                           \
	 (1ULL << VIRTIO_BLK_F_FLUSH) | (1ULL << VIRTIO_BLK_F_RO) | (1ULL << VIRTIO_BLK_F_TOPOLOGY) | \
	 (1ULL << VIRTIO_RING_F_INDIRECT_DESC) | (1ULL << VIRTIO_RING_F_EVENT_IDX))

/* Per request, in DMA-able memory: the device reads out_hdr and writes status. */
struct virtblk_req {
	struct virtio_blk_outhdr out_hdr;
	u8 status;
	struct vring_desc *indir; /* one page of descriptors, or NULL */
};

struct virtio_blk {
	struct virtio_pci_device *vp;
	struct virtqueue *vq;
	struct gendisk *disk;
	spinlock_t vq_lock;
	unsigned int max_segments;
	struct blk_seg *segs; /* scratch for one request, under q->lock */
	struct vq_sg *sgs;
};

static unsigned int virtblk_next_index;

static bool has_feature(const struct virtio_blk *vblk, unsigned int bit)
{
	return vblk->vp->features & (1ULL << bit);
}

static int virtblk_errno(u8 status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:
		return 0;
	case VIRTIO_BLK_S_UNSUPP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* Header, data, status: the data is device-readable for writes, writable for reads. */
static unsigned int virtblk_build_sg(struct virtio_blk *vblk, struct request *rq,
				     struct virtblk_req *req, enum req_op op, unsigned int *out)
{
	unsigned int n = 0;

	vblk->sgs[0] = (struct vq_sg){ virt_to_phys(&req->out_hdr), sizeof(req->out_hdr) };
	if (op != REQ_OP_FLUSH)
		n = blk_rq_map_sg(rq, vblk->segs, vblk->max_segments);
	for (unsigned int i = 0; i < n; i++)
		vblk->sgs[1 + i] = (struct vq_sg){ vblk->segs[i].addr, vblk->segs[i].len };
	vblk->sgs[1 + n] = (struct vq_sg){ virt_to_phys(&req->status), 1 };
	*out = op == REQ_OP_WRITE ? 1 + n : 1;
	return n + 2;
}

static int virtblk_queue_rq(struct request_queue *q, struct request *rq)
{
	struct virtio_blk *vblk = q->queuedata;
	struct virtblk_req *req = rq->driver_data;
	enum req_op op = req_op(rq);
	unsigned int out, total;
	unsigned long flags;
	int err;

	req->out_hdr.type = op == REQ_OP_READ  ? VIRTIO_BLK_T_IN :
			    op == REQ_OP_WRITE ? VIRTIO_BLK_T_OUT :
						 VIRTIO_BLK_T_FLUSH;
	req->out_hdr.ioprio = 0;
	req->out_hdr.sector = op == REQ_OP_FLUSH ? 0 : blk_rq_pos(rq);
	req->status = 0xff;
	total = virtblk_build_sg(vblk, rq, req, op, &out);

	spin_lock_irqsave(&vblk->vq_lock, flags);
	err = virtqueue_add_sgs(vblk->vq, vblk->sgs, out, total - out, rq, req->indir);
	spin_unlock_irqrestore(&vblk->vq_lock, flags);
	if (err == -ENOSPC)
		return -EBUSY; /* back when completions free descriptors */
	return err;
}

static void virtblk_commit_rqs(struct request_queue *q)
{
	struct virtio_blk *vblk = q->queuedata;
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&vblk->vq_lock, flags);
	notify = virtqueue_kick_prepare(vblk->vq);
	spin_unlock_irqrestore(&vblk->vq_lock, flags);
	if (notify)
		virtqueue_notify(vblk->vq);
}

/* A completion the device made and nobody took (used ahead of last used) is a lost interrupt. */
static void virtblk_show_state(struct request_queue *q)
{
	struct virtio_blk *vblk = q->queuedata;
	const struct virtqueue *vq = vblk->vq;

	pr_err("%s: virtqueue: %u made available, %u used by the device, %u taken, %u free, "
	       "interrupts %s (%lu received, the next asked for at used %u%s)%s\n",
	       vblk->disk->disk_name, vq->avail_idx_shadow, READ_ONCE(vq->used->idx),
	       vq->last_used_idx, vq->num_free,
	       vq->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT ? "off" : "on",
	       vblk->vp->nr_irqs, virtqueue_used_event(vq), vq->event_idx ? "" : ", no event index",
	       vq->broken ? ", broken" : "");
}

static const struct blk_mq_ops virtblk_mq_ops = {
	.queue_rq = virtblk_queue_rq,
	.commit_rqs = virtblk_commit_rqs,
	.show_state = virtblk_show_state,
};

/* Interrupt: take every used request, re-arm, then end them and refill the ring. */
static void virtblk_done(void *data)
{
	struct virtio_blk *vblk = data;
	struct request *rq, *tmp;
	LIST_HEAD(done);
	unsigned long flags;

	spin_lock_irqsave(&vblk->vq_lock, flags);
	do {
		virtqueue_disable_cb(vblk->vq);
		while ((rq = virtqueue_get_buf(vblk->vq, NULL)))
			list_add_tail(&rq->queuelist, &done);
	} while (!virtqueue_enable_cb(vblk->vq));
	spin_unlock_irqrestore(&vblk->vq_lock, flags);

	list_for_each_entry_safe(rq, tmp, &done, queuelist) {
		struct virtblk_req *req = rq->driver_data;
		list_del_init(&rq->queuelist);
		blk_mq_end_request(rq, virtblk_errno(req->status));
	}
	blk_mq_run_queue(vblk->disk->queue);
}

/* vda ... vdz, vdaa ...: Linux's names. */
static void virtblk_name(char *buf, size_t size, unsigned int index)
{
	char tmp[8];
	int n = 0;
	long i = index;

	do {
		tmp[n++] = (char)('a' + i % 26);
		i = i / 26 - 1;
	} while (i >= 0 && n < (int)sizeof(tmp));
	size_t k = strlcpy(buf, "vd", size);
	while (n && k + 1 < size)
		buf[k++] = tmp[--n];
	buf[k] = 0;
}

static void virtblk_limits(struct virtio_blk *vblk, struct queue_limits *lim)
{
	struct virtio_pci_device *vp = vblk->vp;
	unsigned int ring_room = vblk->vq->use_indirect ? VIRTBLK_INDIRECT_DESCS : vblk->vq->num;
	u32 seg_max = has_feature(vblk, VIRTIO_BLK_F_SEG_MAX) ?
			      vp_config_read32(vp, VIRTIO_BLK_CFG_SEG_MAX) :
			      1;

	memset(lim, 0, sizeof(*lim));
	lim->logical_block_size = has_feature(vblk, VIRTIO_BLK_F_BLK_SIZE) ?
					  vp_config_read32(vp, VIRTIO_BLK_CFG_BLK_SIZE) :
					  SECTOR_SIZE;
	lim->physical_block_size = lim->logical_block_size;
	if (has_feature(vblk, VIRTIO_BLK_F_TOPOLOGY)) {
		lim->physical_block_size <<= vp_config_read8(vp, VIRTIO_BLK_CFG_PHYS_BLOCK_EXP);
		lim->io_min =
			vp_config_read16(vp, VIRTIO_BLK_CFG_MIN_IO_SIZE) * lim->logical_block_size;
		lim->io_opt =
			vp_config_read32(vp, VIRTIO_BLK_CFG_OPT_IO_SIZE) * lim->logical_block_size;
	}
	/* two descriptors of every chain are the header and the status */
	lim->max_segments = min(max(seg_max, 1u), ring_room - 2);
	lim->max_segment_size = has_feature(vblk, VIRTIO_BLK_F_SIZE_MAX) ?
					vp_config_read32(vp, VIRTIO_BLK_CFG_SIZE_MAX) :
					1u << 31;
	lim->max_hw_sectors = VIRTBLK_MAX_SECTORS;
}

static int virtblk_alloc_requests(struct virtio_blk *vblk)
{
	struct request_queue *q = vblk->disk->queue;

	vblk->segs = kcalloc(vblk->max_segments, sizeof(*vblk->segs), GFP_KERNEL);
	vblk->sgs = kcalloc(vblk->max_segments + 2, sizeof(*vblk->sgs), GFP_KERNEL);
	if (!vblk->segs || !vblk->sgs)
		return -ENOMEM;
	if (!vblk->vq->use_indirect)
		return 0;
	for (unsigned int i = 0; i < q->queue_depth; i++) {
		struct virtblk_req *req = q->requests[i].driver_data;
		req->indir = __get_free_pages(GFP_KERNEL, 0);
		if (!req->indir)
			return -ENOMEM;
	}
	return 0;
}

static int virtblk_negotiate(struct virtio_pci_device *vp)
{
	vp_reset(vp);
	vp_add_status(vp, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	u64 offered = vp_get_features(vp);
	if (!(offered & (1ULL << VIRTIO_F_VERSION_1)))
		return -ENODEV;
	return vp_finalize_features(vp, offered & VIRTBLK_FEATURES);
}

static int virtblk_make_disk(struct virtio_blk *vblk)
{
	struct queue_limits lim;
	unsigned int depth = vblk->vq->use_indirect ? min(vblk->vq->num, VIRTBLK_QUEUE_DEPTH) :
						      max(vblk->vq->num / 4, 1u);

	virtblk_limits(vblk, &lim);
	vblk->max_segments = lim.max_segments;
	vblk->disk = blk_alloc_disk(&virtblk_mq_ops, depth, sizeof(struct virtblk_req), vblk);
	if (!vblk->disk)
		return -ENOMEM;
	blk_queue_set_limits(vblk->disk->queue, &lim);
	struct gendisk *disk = vblk->disk;
	unsigned int index = virtblk_next_index++;
	virtblk_name(disk->disk_name, sizeof(disk->disk_name), index);
	disk->major = VIRTBLK_MAJOR;
	disk->first_minor = (int)(index * VIRTBLK_MINORS);
	disk->capacity = vp_config_read64(vblk->vp, VIRTIO_BLK_CFG_CAPACITY);
	disk->read_only = has_feature(vblk, VIRTIO_BLK_F_RO);
	disk->has_flush = has_feature(vblk, VIRTIO_BLK_F_FLUSH);
	disk->private_data = vblk;
	return virtblk_alloc_requests(vblk);
}

static void virtblk_announce(struct virtio_blk *vblk)
{
	struct gendisk *disk = vblk->disk;
	const struct queue_limits *lim = &disk->queue->limits;

	pr_info("%s: %llu sectors (%llu MiB), %u-byte blocks, %s%s%s, seg_max %u, ring %u, depth "
		"%u, %s\n",
		disk->disk_name, (unsigned long long)disk->capacity,
		(unsigned long long)(disk->capacity >> 11), lim->logical_block_size,
		disk->read_only ? "read-only" : "read-write", disk->has_flush ? ", write cache" : "",
		vblk->vq->use_indirect ? ", indirect" : "", lim->max_segments, vblk->vq->num,
		disk->queue->queue_depth, vblk->vp->msix ? "MSI-X" : "INTx");
}

static int virtio_blk_probe(struct virtio_pci_device *vp)
{
	struct virtio_blk *vblk;
	int err = virtblk_negotiate(vp);

	if (err)
		return err;
	if (!vp->device)
		return -ENODEV;
	vblk = kzalloc(sizeof(*vblk), GFP_KERNEL);
	if (!vblk)
		return -ENOMEM;
	vblk->vp = vp;
	spin_lock_init(&vblk->vq_lock);
	err = vp_request_irq(vp, virtblk_done, vblk);
	if (err)
		return err;
	vblk->vq = vp_setup_vq(vp, 0, VIRTBLK_MAX_RING);
	if (!vblk->vq)
		return -ENOMEM;
	err = virtblk_make_disk(vblk);
	if (err)
		return err;
	vp_add_status(vp, VIRTIO_CONFIG_S_DRIVER_OK);
	err = add_disk(vblk->disk);
	if (err)
		return err;
	strlcpy(vp->pci->driver_info, vblk->disk->disk_name, sizeof(vp->pci->driver_info));
	virtblk_announce(vblk);
	return 0;
}

static const struct virtio_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.device_id = VIRTIO_ID_BLOCK,
	.probe = virtio_blk_probe,
};

void virtio_blk_init(void)
{
	register_virtio_driver(&virtio_blk_driver);
}
