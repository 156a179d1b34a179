/*
 * The trace ring buffer (include/cgwb/trace.h): fixed-size entries in an array indexed by
 * sequence number modulo its size. head and tail only grow, so a reader's position stays
 * meaningful across wraps: a position below tail was overwritten, and the reader resumes
 * at tail. One CPU: interrupts off around each access is the whole lock, so entries are
 * written from interrupt handlers too.
 */
#include <cgwb/trace.h>
#include <cgwb/irqflags.h>
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
	local_irq_save(flags);
	old = r->slots;
	r->slots = slots;
	r->nr = nr;
	/* keep the sequence numbers growing: readers' positions fall below tail and resync */
	r->tail = r->head;
	r->lost = 0;
	local_irq_restore(flags);
	vfree(old);
	return 0;
}

void trace_ring_write(struct trace_ring *r, const struct trace_entry *e)
{
	unsigned long flags;

	local_irq_save(flags);
	if (r->head - r->tail == r->nr) {
		r->tail++; /* overwrite the oldest */
		r->lost++;
	}
	r->slots[r->head % r->nr] = *e;
	r->head++;
	local_irq_restore(flags);
}

bool trace_ring_peek(struct trace_ring *r, u64 *pos, struct trace_entry *out)
{
	unsigned long flags;
	bool found = false;

	local_irq_save(flags);
	if (*pos < r->tail)
		*pos = r->tail;
	if (*pos < r->head) {
		*out = r->slots[*pos % r->nr];
		(*pos)++;
		found = true;
	}
	local_irq_restore(flags);
	return found;
}

bool trace_ring_consume(struct trace_ring *r, struct trace_entry *out)
{
	unsigned long flags;
	bool found = false;

	local_irq_save(flags);
	if (r->tail < r->head) {
		*out = r->slots[r->tail % r->nr];
		r->tail++;
		found = true;
	}
	local_irq_restore(flags);
	return found;
}

void trace_ring_reset(struct trace_ring *r)
{
	unsigned long flags;

	local_irq_save(flags);
	r->tail = r->head;
	r->lost = 0;
	local_irq_restore(flags);
}

unsigned long trace_ring_entries(const struct trace_ring *r)
{
	return (unsigned long)(READ_ONCE(r->head) - READ_ONCE(r->tail));
}
