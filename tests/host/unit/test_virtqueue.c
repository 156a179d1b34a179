/*
 * Split virtqueue bookkeeping against a fake device that lives in host memory: it reads
 * the avail ring and descriptors exactly as a device would and writes used entries back,
 * in order or not, so the free list, index wrap-around and interrupt/notify suppression
 * are exercised without hardware.
 */
#include <criterion/criterion.h>
#include <cgwb/virtio_ring.h>
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include "host.h"

#define F_INDIRECT (1ULL << VIRTIO_RING_F_INDIRECT_DESC)
#define F_EVENT (1ULL << VIRTIO_RING_F_EVENT_IDX)

struct fake_dev {
	struct virtqueue *vq;
	u16 last_avail;
	unsigned int notifies;
	u16 pending[1024]; /* heads taken from avail, not yet used */
	unsigned int nr_pending;
};

static struct fake_dev dev;

static bool fake_notify(struct virtqueue *vq)
{
	struct fake_dev *d = vq->priv;
	d->notifies++;
	return true;
}

static void setup(void)
{
	host_platform_init(16 << 20);
	memset(&dev, 0, sizeof(dev));
}

static void teardown(void)
{
	if (dev.vq)
		vring_del_virtqueue(dev.vq);
	host_platform_exit();
}

static struct virtqueue *make_vq(unsigned int num, u64 features)
{
	dev.vq = vring_create_virtqueue(0, num, features, fake_notify, &dev);
	cr_assert(dev.vq);
	cr_assert_eq(dev.vq->num_free, num);
	return dev.vq;
}

/* Walk a chain like a device: returns total bytes, counting writable ones in *in_bytes. */
static u32 chain_bytes(struct virtqueue *vq, u16 head, u32 *in_bytes, unsigned int *ndesc)
{
	const struct vring_desc *table = vq->desc;
	unsigned int limit = vq->num;
	u16 i = head;
	u32 total = 0;

	*in_bytes = 0;
	*ndesc = 0;
	if (table[i].flags & VRING_DESC_F_INDIRECT) {
		cr_assert_eq(table[i].len % sizeof(struct vring_desc), 0);
		limit = table[i].len / sizeof(struct vring_desc);
		table = phys_to_virt(table[i].addr);
		i = 0;
	}
	for (;;) {
		cr_assert_lt(i, limit, "descriptor index out of the table");
		cr_assert_lt(++*ndesc, 300, "descriptor loop");
		total += table[i].len;
		if (table[i].flags & VRING_DESC_F_WRITE)
			*in_bytes += table[i].len;
		if (!(table[i].flags & VRING_DESC_F_NEXT))
			return total;
		i = table[i].next;
	}
}

/* Take every newly available head. */
static void fake_fetch(void)
{
	struct virtqueue *vq = dev.vq;

	while (dev.last_avail != vq->avail->idx) {
		dev.pending[dev.nr_pending++] = vq->avail->ring[dev.last_avail % vq->num];
		dev.last_avail++;
	}
	/* with event index, tell the driver where we have read up to */
	*(volatile u16 *)&vq->used->ring[vq->num] = dev.last_avail;
}

/* Return pending head k as used, with its writable length. */
static void fake_use(unsigned int k)
{
	struct virtqueue *vq = dev.vq;
	u32 in;
	unsigned int nd;
	u16 head = dev.pending[k];

	chain_bytes(vq, head, &in, &nd);
	struct vring_used_elem *e = &vq->used->ring[vq->used->idx % vq->num];
	e->id = head;
	e->len = in;
	vq->used->idx++;
	dev.pending[k] = dev.pending[--dev.nr_pending];
}

static int add_one(struct virtqueue *vq, void *token, unsigned int out, unsigned int in,
		   struct vring_desc *indir)
{
	struct vq_sg sg[8];

	for (unsigned int i = 0; i < out + in; i++)
		sg[i] = (struct vq_sg){ 0x1000 * (i + 1), 512 * (i + 1) };
	return virtqueue_add_sgs(vq, sg, out, in, token, indir);
}

TestSuite(virtqueue, .init = setup, .fini = teardown);

Test(virtqueue, direct_chain_uses_consecutive_free_descriptors)
{
	struct virtqueue *vq = make_vq(16, 0);
	int token;

	cr_assert_eq(add_one(vq, &token, 1, 2, NULL), 0);
	cr_assert_eq(vq->num_free, 13);
	fake_fetch();
	cr_assert_eq(dev.nr_pending, 1);
	u32 in;
	unsigned int nd;
	cr_assert_eq(chain_bytes(vq, dev.pending[0], &in, &nd), 512 + 1024 + 1536);
	cr_assert_eq(nd, 3);
	cr_assert_eq(in, 1024 + 1536, "the last two are device-writable");
	cr_assert_eq(virtqueue_check(vq), 0);
	fake_use(0);
	unsigned int len;
	cr_assert_eq(virtqueue_get_buf(vq, &len), &token);
	cr_assert_eq(len, 2560);
	cr_assert_eq(vq->num_free, 16);
	cr_assert_null(virtqueue_get_buf(vq, &len));
	cr_assert_eq(virtqueue_check(vq), 0);
}

Test(virtqueue, indirect_chain_takes_one_slot)
{
	struct virtqueue *vq = make_vq(8, F_INDIRECT);
	struct vring_desc *table = kcalloc(8, sizeof(*table), GFP_KERNEL);
	int tokens[8];

	for (int i = 0; i < 8; i++)
		cr_assert_eq(add_one(vq, &tokens[i], 2, 3, table), 0, "slot %d", i);
	cr_assert_eq(vq->num_free, 0);
	cr_assert_eq(add_one(vq, &tokens[0], 2, 3, table), -ENOSPC);
	fake_fetch();
	u32 in;
	unsigned int nd;
	cr_assert_eq(chain_bytes(vq, dev.pending[7], &in, &nd), 512 * 15);
	cr_assert_eq(nd, 5);
	cr_assert_eq(in, 512 * (3 + 4 + 5));
	kfree(table);
}

Test(virtqueue, full_ring_refuses_then_recovers)
{
	struct virtqueue *vq = make_vq(8, 0);
	int tokens[4];

	for (int i = 0; i < 4; i++)
		cr_assert_eq(add_one(vq, &tokens[i], 1, 1, NULL), 0);
	cr_assert_eq(add_one(vq, &tokens[0], 1, 1, NULL), -ENOSPC);
	cr_assert_eq(virtqueue_check(vq), 0);
	fake_fetch();
	fake_use(2); /* the third request finishes first */
	cr_assert_eq(virtqueue_get_buf(vq, NULL), &tokens[2]);
	cr_assert_eq(vq->num_free, 2);
	cr_assert_eq(add_one(vq, &tokens[2], 1, 1, NULL), 0);
	cr_assert_eq(virtqueue_check(vq), 0);
}

/* Many rounds with mixed chain lengths and random completion order, past idx wrap. */
Test(virtqueue, wraparound_and_out_of_order_completion)
{
	struct virtqueue *vq = make_vq(16, 0);
	static int tokens[16];
	unsigned int outstanding = 0, rng = 12345;
	unsigned long completed = 0;

	for (unsigned long round = 0; completed < 70000 && round < 1000000; round++) {
		unsigned int n = 1 + round % 3;
		int *t = NULL;
		for (int i = 0; i < 16; i++)
			if (!tokens[i]) {
				t = &tokens[i];
				break;
			}
		if (t && add_one(vq, t, 1, n - 1 ? n - 1 : 0, NULL) == 0) {
			*t = 1;
			outstanding++;
		}
		fake_fetch();
		while (dev.nr_pending && (rng = rng * 1103515245 + 12345) % 3 == 0)
			fake_use((rng >> 8) % dev.nr_pending);
		int *done;
		while ((done = virtqueue_get_buf(vq, NULL))) {
			cr_assert_eq(*done, 1, "token returned twice");
			*done = 0;
			outstanding--;
			completed++;
		}
		if (round % 1000 == 0)
			cr_assert_eq(virtqueue_check(vq), 0);
	}
	cr_assert_gt(completed, 65536, "the 16-bit indexes wrapped");
	cr_assert_eq(virtqueue_check(vq), 0);
	cr_assert_eq(vq->avail_idx_shadow - vq->last_used_idx, outstanding);
}

Test(virtqueue, notify_suppressed_by_no_notify_flag)
{
	struct virtqueue *vq = make_vq(8, 0);
	int t;

	add_one(vq, &t, 1, 0, NULL);
	cr_assert(virtqueue_kick(vq));
	cr_assert_eq(dev.notifies, 1);
	cr_assert_not(virtqueue_kick_prepare(vq), "nothing new: no kick");
	vq->used->flags = VRING_USED_F_NO_NOTIFY;
	add_one(vq, &t, 1, 0, NULL);
	cr_assert_not(virtqueue_kick_prepare(vq));
	cr_assert_eq(vq->nr_kicks_skipped, 1);
}

Test(virtqueue, event_index_notify_and_interrupt_hints)
{
	struct virtqueue *vq = make_vq(8, F_EVENT);
	int t[4];

	/* the device has read nothing yet and asks to hear at avail 0 */
	add_one(vq, &t[0], 1, 0, NULL);
	add_one(vq, &t[1], 1, 0, NULL);
	cr_assert(virtqueue_kick_prepare(vq), "avail_event 0 lies in [0, 2)");
	fake_fetch(); /* device read up to 2: avail_event = 2 */
	add_one(vq, &t[2], 1, 0, NULL);
	cr_assert(virtqueue_kick_prepare(vq), "avail_event 2 lies in [2, 3)");
	/* the device did not fetch: it still wants to hear at 2, which was passed already */
	add_one(vq, &t[3], 1, 0, NULL);
	cr_assert_not(virtqueue_kick_prepare(vq));

	u16 *used_event = &vq->avail->ring[vq->num];
	cr_assert(virtqueue_enable_cb(vq));
	cr_assert_eq(*used_event, 0);
	fake_fetch();
	fake_use(0);
	cr_assert_not(virtqueue_enable_cb(vq), "an entry is pending");
	cr_assert_not_null(virtqueue_get_buf(vq, NULL));
	cr_assert_eq(*used_event, 1, "interrupt wanted at the next entry");
	virtqueue_disable_cb(vq);
	cr_assert_not(vring_need_event(*used_event, 2, 1), "suppressed");
}

Test(virtqueue, interrupt_flag_without_event_index)
{
	struct virtqueue *vq = make_vq(8, 0);

	virtqueue_disable_cb(vq);
	cr_assert_eq(vq->avail->flags, VRING_AVAIL_F_NO_INTERRUPT);
	cr_assert(virtqueue_enable_cb(vq));
	cr_assert_eq(vq->avail->flags, 0);
}

Test(virtqueue, bad_used_id_breaks_queue)
{
	struct virtqueue *vq = make_vq(8, 0);
	int t;

	add_one(vq, &t, 1, 1, NULL);
	vq->used->ring[0].id = 5; /* never made available */
	vq->used->idx = 1;
	cr_assert_null(virtqueue_get_buf(vq, NULL));
	cr_assert(vq->broken);
	cr_assert(host_log_contains("bad id 5"));
	cr_assert_eq(add_one(vq, &t, 1, 1, NULL), -EIO);
}

/* Found by the virtqueue fuzzer: a used length beyond the chain was handed to the driver. */
Test(virtqueue, used_len_beyond_chain_breaks_queue)
{
	struct virtqueue *vq = make_vq(8, 0);
	unsigned int len = 0;
	int t[2];

	add_one(vq, &t[0], 1, 1, NULL); /* 1024 writable bytes */
	add_one(vq, &t[1], 1, 1, NULL);
	fake_fetch();
	vq->used->ring[0] = (struct vring_used_elem){ dev.pending[0], 1024 };
	vq->used->ring[1] = (struct vring_used_elem){ dev.pending[1], 1025 };
	vq->used->idx = 2;
	cr_assert_eq(virtqueue_get_buf(vq, &len), &t[0]);
	cr_assert_eq(len, 1024);
	cr_assert_null(virtqueue_get_buf(vq, &len));
	cr_assert(vq->broken);
	cr_assert(host_log_contains("device used 1025 bytes"));
	cr_assert_eq(virtqueue_check(vq), 0);
}

/* Found by the virtqueue fuzzer: stale entries past the ones in flight were consumed. */
Test(virtqueue, used_idx_ahead_of_avail_breaks_queue)
{
	struct virtqueue *vq = make_vq(8, 0);
	int t[2];

	add_one(vq, &t[0], 1, 1, NULL);
	fake_fetch();
	fake_use(0);
	cr_assert_eq(virtqueue_get_buf(vq, NULL), &t[0]);
	add_one(vq, &t[1], 1, 1, NULL); /* the same head again, in flight once */
	vq->used->idx += 2;             /* two entries, one of them the stale one */
	cr_assert_null(virtqueue_get_buf(vq, NULL));
	cr_assert(vq->broken);
	cr_assert(host_log_contains("device used 2 entries, 1 in flight"));
	cr_assert_eq(virtqueue_check(vq), 0);
}

Test(virtqueue, detach_unused_returns_every_token)
{
	struct virtqueue *vq = make_vq(8, F_INDIRECT);
	struct vring_desc table[4];
	int t[3];

	add_one(vq, &t[0], 1, 1, NULL);
	add_one(vq, &t[1], 1, 2, table);
	add_one(vq, &t[2], 1, 0, NULL);
	int seen = 0;
	void *tok;
	while ((tok = virtqueue_detach_unused_buf(vq)))
		seen |= 1 << ((int *)tok - t);
	cr_assert_eq(seen, 7);
	cr_assert_eq(vq->num_free, 8);
	cr_assert_eq(virtqueue_check(vq), 0);
}

Test(virtqueue, ring_layout)
{
	struct virtqueue *vq = make_vq(256, 0);

	cr_assert_eq((char *)vq->avail - (char *)vq->desc, 256 * 16);
	cr_assert_eq(((uintptr_t)vq->used) % VRING_USED_ALIGN, 0);
	cr_assert_eq(vring_size(256), 8192 + 4 + 256 * 8 + 2);
	cr_assert_null(vring_create_virtqueue(0, 12, 0, fake_notify, &dev), "not a power of two");
}
