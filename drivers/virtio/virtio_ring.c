/*
 * Split virtqueue bookkeeping (virtio 1.x section 2.7), portable: the device is reached only
 * through memory and the notify callback.
 *
 * Free descriptors form a list threaded through desc[].next. A direct chain takes
 * consecutive free-list entries without relinking them (the device ignores .next once
 * VRING_DESC_F_NEXT is clear), so freeing a chain is one splice at the head.
 */
#include <cgwb/virtio_ring.h>
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>

#define VQ_MAX_NUM 32768

static size_t vring_avail_bytes(unsigned int num)
{
	return sizeof(u16) * (3 + num); /* flags, idx, ring[num], used_event */
}

static size_t vring_used_offset(unsigned int num)
{
	return ALIGN(sizeof(struct vring_desc) * num + vring_avail_bytes(num),
		     (size_t)VRING_USED_ALIGN);
}

size_t vring_size(unsigned int num)
{
	return vring_used_offset(num) + sizeof(u16) * 3 + sizeof(struct vring_used_elem) * num;
}

/* The event-index words live just past each ring. */
static u16 *vring_used_event(const struct virtqueue *vq)
{
	return &vq->avail->ring[vq->num];
}

static volatile u16 *vring_avail_event(const struct virtqueue *vq)
{
	return (volatile u16 *)&vq->used->ring[vq->num];
}

static int vq_alloc_ring(struct virtqueue *vq)
{
	unsigned int order = get_order(vring_size(vq->num));
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, order);

	if (!page)
		return -ENOMEM;
	vq->ring_mem = page_address(page);
	vq->ring_order = order;
	vq->desc = vq->ring_mem;
	vq->avail =
		(struct vring_avail *)((char *)vq->ring_mem + sizeof(struct vring_desc) * vq->num);
	vq->used = (struct vring_used *)((char *)vq->ring_mem + vring_used_offset(vq->num));
	return 0;
}

struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num, u64 features,
					 vq_notify_fn notify, void *priv)
{
	if (!is_power_of_2(num) || num > VQ_MAX_NUM || !notify)
		return NULL;
	struct virtqueue *vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	if (!vq)
		return NULL;
	vq->index = index;
	vq->num = num;
	vq->notify = notify;
	vq->priv = priv;
	vq->use_indirect = features & (1ULL << VIRTIO_RING_F_INDIRECT_DESC);
	vq->event_idx = features & (1ULL << VIRTIO_RING_F_EVENT_IDX);
	vq->data = kcalloc(num, sizeof(*vq->data), GFP_KERNEL);
	vq->chain_len = kcalloc(num, sizeof(*vq->chain_len), GFP_KERNEL);
	vq->in_len = kcalloc(num, sizeof(*vq->in_len), GFP_KERNEL);
	if (!vq->data || !vq->chain_len || !vq->in_len || vq_alloc_ring(vq)) {
		vring_del_virtqueue(vq);
		return NULL;
	}
	for (unsigned int i = 0; i < num - 1; i++)
		vq->desc[i].next = (u16)(i + 1);
	vq->free_head = 0;
	vq->num_free = num;
	return vq;
}

void vring_del_virtqueue(struct virtqueue *vq)
{
	if (!vq)
		return;
	if (vq->ring_mem)
		free_pages(vq->ring_mem, vq->ring_order);
	kfree(vq->data);
	kfree(vq->chain_len);
	kfree(vq->in_len);
	kfree(vq);
}

phys_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq)
{
	return virt_to_phys(vq->desc);
}

phys_addr_t virtqueue_get_avail_addr(const struct virtqueue *vq)
{
	return virt_to_phys(vq->avail);
}

phys_addr_t virtqueue_get_used_addr(const struct virtqueue *vq)
{
	return virt_to_phys(vq->used);
}

static u16 sg_flags(unsigned int i, unsigned int out_sgs, unsigned int total)
{
	u16 flags = i < out_sgs ? 0 : VRING_DESC_F_WRITE;

	return i + 1 < total ? flags | VRING_DESC_F_NEXT : flags;
}

/* Fill the caller's indirect table; the ring gets one descriptor pointing at it. */
static u16 vq_add_indirect(struct virtqueue *vq, const struct vq_sg *sgs, unsigned int out_sgs,
			   unsigned int total, struct vring_desc *indir)
{
	u16 head = vq->free_head;

	for (unsigned int i = 0; i < total; i++) {
		indir[i].addr = sgs[i].addr;
		indir[i].len = sgs[i].len;
		indir[i].flags = sg_flags(i, out_sgs, total);
		indir[i].next = (u16)(i + 1);
	}
	vq->desc[head].addr = virt_to_phys(indir);
	vq->desc[head].len = (u32)(total * sizeof(struct vring_desc));
	vq->desc[head].flags = VRING_DESC_F_INDIRECT;
	vq->free_head = vq->desc[head].next;
	return head;
}

static u16 vq_add_direct(struct virtqueue *vq, const struct vq_sg *sgs, unsigned int out_sgs,
			 unsigned int total)
{
	u16 head = vq->free_head, i = head;

	for (unsigned int k = 0; k < total; k++) {
		vq->desc[i].addr = sgs[k].addr;
		vq->desc[i].len = sgs[k].len;
		vq->desc[i].flags = sg_flags(k, out_sgs, total);
		i = vq->desc[i].next;
	}
	vq->free_head = i;
	return head;
}

int virtqueue_add_sgs(struct virtqueue *vq, const struct vq_sg *sgs, unsigned int out_sgs,
		      unsigned int in_sgs, void *data, struct vring_desc *indir)
{
	unsigned int total = out_sgs + in_sgs;
	bool indirect = indir && vq->use_indirect && total > 1;
	unsigned int needed = indirect ? 1 : total;
	u32 in_len = 0;
	u16 head;

	BUG_ON(!data);
	if (unlikely(vq->broken))
		return -EIO;
	if (!total)
		return -EINVAL;
	if (vq->num_free < needed)
		return -ENOSPC;
	if (indirect)
		head = vq_add_indirect(vq, sgs, out_sgs, total, indir);
	else
		head = vq_add_direct(vq, sgs, out_sgs, total);
	vq->num_free -= needed;
	BUG_ON(vq->data[head]);
	vq->data[head] = data;
	vq->chain_len[head] = (u16)needed;
	for (unsigned int i = out_sgs; i < total; i++)
		in_len += sgs[i].len;
	vq->in_len[head] = in_len;

	vq->avail->ring[vq->avail_idx_shadow & (vq->num - 1)] = head;
	smp_wmb(); /* the entry before the index that publishes it */
	vq->avail_idx_shadow++;
	WRITE_ONCE(vq->avail->idx, vq->avail_idx_shadow);
	vq->num_added++;
	vq->nr_added++;
	/* event-index arithmetic works modulo 2^16: never let a batch get that large */
	if (unlikely(vq->num_added == 0xffff))
		virtqueue_kick(vq);
	return 0;
}

bool virtqueue_kick_prepare(struct virtqueue *vq)
{
	u16 new_idx = vq->avail_idx_shadow, old_idx = vq->kicked_avail_idx;
	bool needed;

	/* the device must see the new avail->idx before we read its suppression state */
	smp_mb();
	vq->num_added = 0;
	vq->kicked_avail_idx = new_idx;
	if (new_idx == old_idx)
		return false;
	if (vq->event_idx)
		needed = vring_need_event(READ_ONCE(*vring_avail_event(vq)), new_idx, old_idx);
	else
		needed = !(READ_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY);
	if (!needed)
		vq->nr_kicks_skipped++;
	return needed;
}

bool virtqueue_notify(struct virtqueue *vq)
{
	if (unlikely(vq->broken))
		return false;
	if (!vq->notify(vq)) {
		vq->broken = true;
		return false;
	}
	vq->nr_kicks++;
	return true;
}

bool virtqueue_kick(struct virtqueue *vq)
{
	if (virtqueue_kick_prepare(vq))
		return virtqueue_notify(vq);
	return true;
}

static void vq_detach(struct virtqueue *vq, u16 head)
{
	u16 n = vq->chain_len[head], last = head;

	BUG_ON(n == 0 || vq->num_free + n > vq->num);
	for (u16 k = 1; k < n; k++)
		last = vq->desc[last].next;
	vq->desc[last].next = vq->free_head;
	vq->free_head = head;
	vq->num_free += n;
	vq->data[head] = NULL;
	vq->chain_len[head] = 0;
}

bool virtqueue_more_used(const struct virtqueue *vq)
{
	return vq->last_used_idx != READ_ONCE(vq->used->idx);
}

u16 virtqueue_used_event(const struct virtqueue *vq)
{
	return READ_ONCE(*vring_used_event(vq));
}

void *virtqueue_get_buf(struct virtqueue *vq, unsigned int *len)
{
	if (unlikely(vq->broken) || !virtqueue_more_used(vq))
		return NULL;
	/* used->idx may not run ahead of what was made available: stale entries lie beyond */
	u16 in_flight = (u16)(vq->avail_idx_shadow - vq->last_used_idx);
	u16 used = (u16)(READ_ONCE(vq->used->idx) - vq->last_used_idx);
	if (unlikely(used > in_flight)) {
		pr_err("virtqueue %u: device used %u entries, %u in flight\n", vq->index, used,
		       in_flight);
		vq->broken = true;
		return NULL;
	}
	smp_rmb(); /* the entry after the index that announced it */
	const struct vring_used_elem *e = &vq->used->ring[vq->last_used_idx & (vq->num - 1)];
	u32 id = READ_ONCE(e->id);
	if (unlikely(id >= vq->num || !vq->data[id])) {
		pr_err("virtqueue %u: device returned bad id %u\n", vq->index, id);
		vq->broken = true;
		return NULL;
	}
	/* more bytes than the chain can take: the device broke the protocol, as with a bad id */
	u32 used_len = READ_ONCE(e->len);
	if (unlikely(used_len > vq->in_len[id])) {
		pr_err("virtqueue %u: device used %u bytes of id %u, which has %u\n", vq->index,
		       used_len, id, vq->in_len[id]);
		vq->broken = true;
		return NULL;
	}
	void *data = vq->data[id];
	if (len)
		*len = used_len;
	vq_detach(vq, (u16)id);
	vq->last_used_idx++;
	vq->nr_used++;
	/* with event index, ask for an interrupt at the next entry unless suppressed */
	if (vq->event_idx && !(vq->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT))
		WRITE_ONCE(*vring_used_event(vq), vq->last_used_idx);
	return data;
}

void virtqueue_disable_cb(struct virtqueue *vq)
{
	if (vq->avail_flags_shadow & VRING_AVAIL_F_NO_INTERRUPT)
		return;
	vq->avail_flags_shadow |= VRING_AVAIL_F_NO_INTERRUPT;
	if (vq->event_idx)
		/* half the index space behind: vring_need_event stays false for 32768 entries */
		WRITE_ONCE(*vring_used_event(vq), (u16)(vq->last_used_idx + 0x8000));
	else
		WRITE_ONCE(vq->avail->flags, vq->avail_flags_shadow);
}

bool virtqueue_enable_cb(struct virtqueue *vq)
{
	vq->avail_flags_shadow &= (u16)~VRING_AVAIL_F_NO_INTERRUPT;
	if (vq->event_idx)
		WRITE_ONCE(*vring_used_event(vq), vq->last_used_idx);
	else
		WRITE_ONCE(vq->avail->flags, vq->avail_flags_shadow);
	smp_mb(); /* publish the request before looking for entries that raced with it */
	return !virtqueue_more_used(vq);
}

void *virtqueue_detach_unused_buf(struct virtqueue *vq)
{
	for (unsigned int i = 0; i < vq->num; i++) {
		void *data = vq->data[i];
		if (!data)
			continue;
		vq_detach(vq, (u16)i);
		return data;
	}
	return NULL;
}

static int vq_bad(const struct virtqueue *vq, const char *what, unsigned int v)
{
	pr_err("virtqueue %u: inconsistent: %s (%u)\n", vq->index, what, v);
	return -EUCLEAN;
}

int virtqueue_check(const struct virtqueue *vq)
{
	unsigned int free = 0, held = 0;
	u16 i = vq->free_head;

	for (unsigned int k = 0; k < vq->num_free; k++) {
		if (i >= vq->num)
			return vq_bad(vq, "free list leaves the table at", k);
		if (vq->chain_len[i] && vq->data[i])
			return vq_bad(vq, "free list holds a busy head", i);
		free++;
		i = vq->desc[i].next;
	}
	for (unsigned int h = 0; h < vq->num; h++) {
		if (!vq->data[h] != !vq->chain_len[h])
			return vq_bad(vq, "head with token but no chain", h);
		held += vq->chain_len[h];
	}
	if (free + held != vq->num)
		return vq_bad(vq, "descriptors lost", vq->num - free - held);
	if ((u16)(vq->avail_idx_shadow - vq->last_used_idx) > vq->num)
		return vq_bad(vq, "more in flight than entries", vq->avail_idx_shadow);
	return 0;
}
