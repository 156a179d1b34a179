/*
 * The trace ring buffer (include/cgwb/trace.h): fixed-size entries in an array indexed by
 * sequence number modulo its size. head and tail only grow, so a reader's position stays
 * meaningful across wraps: a position below tail was overwritten, and the reader resumes
 * at tail. Every access holds the ring's lock with interrupts off, so entries are written
 * from interrupt handlers and any CPU.
 */
#include <cgwb/trace.h>
#include <cgwb/spinlock.h>
#include <cgwb/vmalloc.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

int trace_ring_init(struct trace_ring *r, unsigned long nr)
{
	BUG_ON(!nr);
	r->slots = vmalloc(nr * sizeof(*r->slots));
	if (!r->slots)
		return -ENOMEM;
	r->nr = nr;
	r->head = r->tail = r->lost = 0;
	spin_lock_init(&r->lock);
	r->lock.name = "trace_ring";
	return 0;
}

void trace_ring_free(struct trace_ring *r)
{
	vfree(r->slots);
	r->slots = NULL;
	r->nr = 0;
}

int trace_ring_resize(struct trace_ring *r, unsigned long nr)
{
	struct trace_entry *slots, *old;
	unsigned long flags;

	if (!nr)
		return -EINVAL;
	slots = vmalloc(nr * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	spin_lock_irqsave(&r->lock, flags);
	old = r->slots;
	r->slots = slots;
	r->nr = nr;
	/* keep the sequence numbers growing: readers' positions fall below tail and resync */
	r->tail = r->head;
	r->lost = 0;
	spin_unlock_irqrestore(&r->lock, flags);
	vfree(old);
	return 0;
}

void trace_ring_write(struct trace_ring *r, const struct trace_entry *e)
{
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	if (r->head - r->tail == r->nr) {
		r->tail++; /* overwrite the oldest */
		r->lost++;
	}
	r->slots[r->head % r->nr] = *e;
	r->head++;
	spin_unlock_irqrestore(&r->lock, flags);
}

bool trace_ring_peek(struct trace_ring *r, u64 *pos, struct trace_entry *out)
{
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&r->lock, flags);
	if (*pos < r->tail)
		*pos = r->tail;
	if (*pos < r->head) {
		*out = r->slots[*pos % r->nr];
		(*pos)++;
		found = true;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return found;
}

bool trace_ring_consume(struct trace_ring *r, struct trace_entry *out)
{
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&r->lock, flags);
	if (r->tail < r->head) {
		*out = r->slots[r->tail % r->nr];
		r->tail++;
		found = true;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return found;
}

void trace_ring_reset(struct trace_ring *r)
{
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	r->tail = r->head;
	r->lost = 0;
	spin_unlock_irqrestore(&r->lock, flags);
}

unsigned long trace_ring_entries(const struct trace_ring *r)
{
	return (unsigned long)(READ_ONCE(r->head) - READ_ONCE(r->tail));
}
