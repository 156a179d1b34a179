/*
 * Split virtqueues (virtio 1.x, section 2.7). The ring lives in ordinary memory shared with
 * the device; the code that drives it is portable: it reaches the device only through the
 * notify callback, so a fake device in host memory can play the other side in unit tests.
 *
 * Locking: none inside. The owner serialises add/kick against get_buf (virtio-blk holds
 * its queue lock with interrupts off).
 */
#ifndef CGWB_VIRTIO_RING_H
#define CGWB_VIRTIO_RING_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>

/* Descriptor flags. */
#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2    /* device writes (driver reads) this buffer */
#define VRING_DESC_F_INDIRECT 4 /* buffer is a table of descriptors */

#define VRING_AVAIL_F_NO_INTERRUPT 1
#define VRING_USED_F_NO_NOTIFY 1

/* Feature bits that belong to the ring rather than to a device type. */
#define VIRTIO_RING_F_INDIRECT_DESC 28
#define VIRTIO_RING_F_EVENT_IDX 29

/* The shared layout: little-endian on the wire, and x86 is little-endian. */
struct vring_desc {
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {
	u16 flags;
	u16 idx;
	u16 ring[]; /* then: u16 used_event (EVENT_IDX) */
};

struct vring_used_elem {
	u32 id;
	u32 len;
};

struct vring_used {
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[]; /* then: u16 avail_event (EVENT_IDX) */
};

/* Natural alignment already gives the wire layout: no packing needed. */
BUILD_BUG_ON(sizeof(struct vring_desc) != 16);
BUILD_BUG_ON(sizeof(struct vring_used_elem) != 8);
BUILD_BUG_ON(sizeof(struct vring_used) != 4);

#define VRING_USED_ALIGN 4096

/* Bytes of one contiguous ring of num entries (legacy layout: used ring page-aligned). */
size_t vring_size(unsigned int num);

/* Does the device need a notification after avail moved from old to new? (virtio 2.7.10) */
static inline bool vring_need_event(u16 event_idx, u16 new_idx, u16 old_idx)
{
	return (u16)(new_idx - event_idx - 1) < (u16)(new_idx - old_idx);
}

/* One buffer of a request: physical address and length. */
struct vq_sg {
	phys_addr_t addr;
	u32 len;
};

struct virtqueue;
typedef bool (*vq_notify_fn)(struct virtqueue *vq);

struct virtqueue {
	unsigned int index; /* queue number on the device */
	unsigned int num;   /* entries (power of two) */
	void *priv;         /* the transport's/driver's */
	vq_notify_fn notify;
	bool use_indirect; /* VIRTIO_RING_F_INDIRECT_DESC negotiated */
	bool event_idx;    /* VIRTIO_RING_F_EVENT_IDX negotiated */
	bool broken;       /* the device broke the protocol: nothing more goes out */

	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	void *ring_mem; /* the allocation holding all three */
	unsigned int ring_order;

	unsigned int num_free; /* descriptors on the free list */
	u16 free_head;
	u16 avail_idx_shadow; /* our copy of avail->idx */
	u16 last_used_idx;    /* next used entry to consume */
	u16 num_added;        /* made available since the last kick */
	u16 kicked_avail_idx; /* avail->idx at the last kick (event-idx arithmetic) */
	u16 avail_flags_shadow;

	void **data;    /* per head: the caller's token (NULL = free) */
	u16 *chain_len; /* per head: descriptors the head holds in the table */
	u32 *in_len;    /* per head: bytes the device may write (a longer used len
	                              breaks the queue) */

	unsigned long nr_kicks, nr_kicks_skipped, nr_added, nr_used;
};

/*
 * Allocate a queue of num entries (power of two <= 32768) with its ring. features is the
 * negotiated feature mask (for INDIRECT_DESC and EVENT_IDX). NULL on allocation failure.
 */
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num, u64 features,
					 vq_notify_fn notify, void *priv);
void vring_del_virtqueue(struct virtqueue *vq);

/* Physical addresses of the three parts, for the transport to tell the device. */
phys_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq);
phys_addr_t virtqueue_get_avail_addr(const struct virtqueue *vq);
phys_addr_t virtqueue_get_used_addr(const struct virtqueue *vq);

/*
 * Expose one buffer chain: out_sgs device-readable entries then in_sgs device-writable ones.
 * With indir (a table of at least out_sgs + in_sgs entries, at a physical address the
 * device can read, owned by the caller until the token comes back) and INDIRECT_DESC, the
 * chain takes one ring descriptor. Returns 0, -ENOSPC when the ring has no room now, -EIO
 * if the queue is broken, -EINVAL for an empty chain.
 */
int virtqueue_add_sgs(struct virtqueue *vq, const struct vq_sg *sgs, unsigned int out_sgs,
		      unsigned int in_sgs, void *data, struct vring_desc *indir);

/* After a batch of adds: publish them and notify the device if it asked to be told. */
bool virtqueue_kick_prepare(struct virtqueue *vq);
bool virtqueue_notify(struct virtqueue *vq);
bool virtqueue_kick(struct virtqueue *vq);

/*
 * The next completed token and the bytes the device wrote into it, or NULL. A used index
 * ahead of the entries in flight, a used entry with an id that is not in flight, or a
 * length beyond the chain's writable bytes breaks the queue (logged): nothing more is
 * returned or added.
 */
void *virtqueue_get_buf(struct virtqueue *vq, unsigned int *len);
bool virtqueue_more_used(const struct virtqueue *vq);
/* The used index at which the driver asked for its next interrupt (event index only). */
u16 virtqueue_used_event(const struct virtqueue *vq);

/*
 * Interrupt suppression. disable_cb asks for no interrupts (a hint); enable_cb asks for
 * one at the next used entry and returns false if entries are already pending (the caller
 * must then drain again, or it could sleep on an interrupt that will never come).
 */
void virtqueue_disable_cb(struct virtqueue *vq);
bool virtqueue_enable_cb(struct virtqueue *vq);

/* Tokens still owned by the device (after a reset): returns one and frees its chain. */
void *virtqueue_detach_unused_buf(struct virtqueue *vq);

/* Consistency check of the bookkeeping (tests): 0 or -EUCLEAN with a log line. */
int virtqueue_check(const struct virtqueue *vq);

#endif
