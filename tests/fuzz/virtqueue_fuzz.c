/*
 * libFuzzer harness: a split virtqueue (drivers/virtio/virtio_ring.c) against a device that
 * misbehaves as the input says.
 *
 * The input is a script. Its first byte picks the ring size and features (indirect
 * descriptors, event index); each following byte is an operation, with its arguments in
 * the bytes after it: the driver adds a request, kicks, takes completions, turns interrupts
 * off and on, or detaches everything (a reset, which ends the script); the device
 * completes a pending request honestly, or writes a used entry with any id and length,
 * repeats its last entry, or sets used->idx to anything. Whatever the device does, the
 * driver must not crash or touch memory it does not own, must hand each request back at
 * most once and only while it is outstanding, with a length no larger than the request's
 * writable bytes, and its bookkeeping must stay consistent (virtqueue_check()).
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/virtio_ring.h>
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include "host.h"

#define MAX_SGS 6
#define MAX_REQS 512 /* requests per input: each token is used once */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum req_state { REQ_UNUSED, REQ_OUTSTANDING, REQ_DONE };

struct req {
	enum req_state state;
	u32 in_bytes;             /* what the device may write */
	struct vring_desc *indir; /* the indirect table, owned until the token returns */
};

struct script {
	const uint8_t *p, *end;
};

static struct req reqs[MAX_REQS];
static unsigned int nr_reqs;

/* The device's side. */
static u16 dev_last_avail;
static u16 pending[1024]; /* heads taken from avail, not yet used */
static unsigned int nr_pending;

static u8 next_u8(struct script *s)
{
	return s->p < s->end ? *s->p++ : 0;
}

static u32 next_u32(struct script *s)
{
	u32 v = 0;

	for (int i = 0; i < 4; i++)
		v |= (u32)next_u8(s) << (8 * i);
	return v;
}

static bool dev_notify(struct virtqueue *vq)
{
	(void)vq;
	return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	host_platform_init(16 << 20);
	return 0;
}

static void driver_add(struct virtqueue *vq, struct script *s)
{
	u8 shape = next_u8(s);
	unsigned int out = shape & 3, in = (shape >> 2) & 3;
	struct vq_sg sg[MAX_SGS];
	struct req *r;

	if (nr_reqs == MAX_REQS)
		return;
	r = &reqs[nr_reqs];
	memset(r, 0, sizeof(*r));
	for (unsigned int i = 0; i < out + in; i++) {
		sg[i] = (struct vq_sg){ 0x1000 * (i + 1), 1u + next_u8(s) * 16u };
		if (i >= out)
			r->in_bytes += sg[i].len;
	}
	if (shape & 0x10)
		r->indir = kmalloc(sizeof(struct vring_desc) * MAX_SGS, GFP_KERNEL);
	if (virtqueue_add_sgs(vq, sg, out, in, r, r->indir)) {
		kfree(r->indir);
		return;
	}
	r->state = REQ_OUTSTANDING;
	nr_reqs++;
}

static void driver_get(struct virtqueue *vq)
{
	unsigned int len = 0;
	struct req *r = virtqueue_get_buf(vq, &len);

	if (!r)
		return;
	BUG_ON(r < reqs || r >= reqs + nr_reqs);
	BUG_ON(r->state != REQ_OUTSTANDING); /* handed back twice, or never given */
	BUG_ON(len > r->in_bytes);
	r->state = REQ_DONE;
	kfree(r->indir);
	r->indir = NULL;
}

static void driver_reset(struct virtqueue *vq)
{
	struct req *r;

	while ((r = virtqueue_detach_unused_buf(vq))) {
		BUG_ON(r < reqs || r >= reqs + nr_reqs || r->state != REQ_OUTSTANDING);
		r->state = REQ_DONE;
		kfree(r->indir);
		r->indir = NULL;
	}
	nr_pending = 0;
	dev_last_avail = vq->avail->idx;
}

static void dev_fetch(struct virtqueue *vq)
{
	while (dev_last_avail != vq->avail->idx && nr_pending < ARRAY_SIZE(pending)) {
		pending[nr_pending++] = vq->avail->ring[dev_last_avail & (vq->num - 1)];
		dev_last_avail++;
	}
	if (vq->event_idx)
		*(volatile u16 *)&vq->used->ring[vq->num] = dev_last_avail;
}

static void dev_put(struct virtqueue *vq, u32 id, u32 len)
{
	struct vring_used_elem *e = &vq->used->ring[vq->used->idx & (vq->num - 1)];

	e->id = id;
	e->len = len;
	vq->used->idx++;
}

/* An honest completion of pending head k, with the bytes the request allows. */
static void dev_complete(struct virtqueue *vq, struct script *s)
{
	unsigned int k;
	u16 head;

	dev_fetch(vq);
	if (!nr_pending)
		return;
	k = next_u8(s) % nr_pending;
	head = pending[k];
	pending[k] = pending[--nr_pending];
	if (head < vq->num && vq->data[head])
		dev_put(vq, head, ((struct req *)vq->data[head])->in_bytes);
}

static void run_op(struct virtqueue *vq, struct script *s)
{
	switch (next_u8(s) % 10) {
	case 0:
	case 1:
		driver_add(vq, s);
		break;
	case 2:
		virtqueue_kick(vq);
		break;
	case 3:
		driver_get(vq);
		break;
	case 4:
		dev_complete(vq, s);
		break;
	case 5: { /* any id, any length */
		u32 id = next_u32(s);

		dev_put(vq, id, next_u32(s));
		break;
	}
	case 6: /* the last entry again */
		dev_put(vq, vq->used->ring[(u16)(vq->used->idx - 1) & (vq->num - 1)].id, next_u8(s));
		break;
	case 7: { /* used->idx moved anywhere */
		u16 idx = (u16)next_u8(s);

		idx |= (u16)(next_u8(s) << 8);
		vq->used->idx = idx;
		break;
	}
	case 8:
		if (next_u8(s) & 1)
			virtqueue_disable_cb(vq);
		else
			virtqueue_enable_cb(vq);
		break;
	case 9: /* a reset: the ring is done with, as after Linux's remove */
		driver_reset(vq);
		s->p = s->end;
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s = { data, data + size };
	u8 shape = next_u8(&s);
	u64 features = 0;
	struct virtqueue *vq;

	if (size > 4096)
		return -1;
	if (shape & 0x10)
		features |= 1ULL << VIRTIO_RING_F_INDIRECT_DESC;
	if (shape & 0x20)
		features |= 1ULL << VIRTIO_RING_F_EVENT_IDX;
	vq = vring_create_virtqueue(0, 1u << (shape % 9), features, dev_notify, NULL);
	BUG_ON(!vq);
	nr_reqs = 0;
	nr_pending = 0;
	dev_last_avail = 0;

	while (s.p < s.end) {
		run_op(vq, &s);
		BUG_ON(virtqueue_check(vq));
	}
	/* drain what is left, then give every request back */
	while (virtqueue_more_used(vq) && !vq->broken)
		driver_get(vq);
	driver_reset(vq);
	BUG_ON(vq->num_free != vq->num);
	vring_del_virtqueue(vq);
	return 0;
}
