/*
 * Hierarchical page counters (see include/cgwb/page_counter.h). Charging walks from the
 * counter up to the root; a try-charge that finds a level over its max undoes the levels
 * below it, so a failed charge leaves no trace.
 */
#include <cgwb/page_counter.h>
#include <cgwb/bug.h>

static unsigned long usage_add(struct page_counter *c, unsigned long nr)
{
	return __atomic_add_fetch(&c->usage, nr, __ATOMIC_RELAXED);
}

static unsigned long usage_sub(struct page_counter *c, unsigned long nr)
{
	return __atomic_sub_fetch(&c->usage, nr, __ATOMIC_RELAXED);
}

/* Racy, like Linux's: the peak is for people to read. */
static void update_watermark(struct page_counter *c, unsigned long usage)
{
	if (usage > READ_ONCE(c->watermark))
		WRITE_ONCE(c->watermark, usage);
}

void page_counter_init(struct page_counter *counter, struct page_counter *parent)
{
	counter->usage = 0;
	counter->max = PAGE_COUNTER_MAX;
	counter->high = PAGE_COUNTER_MAX;
	counter->watermark = 0;
	counter->parent = parent;
}

void page_counter_charge(struct page_counter *counter, unsigned long nr)
{
	for (struct page_counter *c = counter; c; c = c->parent)
		update_watermark(c, usage_add(c, nr));
}

bool page_counter_try_charge(struct page_counter *counter, unsigned long nr,
			     struct page_counter **fail)
{
	struct page_counter *c;

	for (c = counter; c; c = c->parent) {
		if (usage_add(c, nr) > READ_ONCE(c->max)) {
			usage_sub(c, nr);
			*fail = c;
			for (struct page_counter *u = counter; u != c; u = u->parent)
				usage_sub(u, nr);
			return false;
		}
	}
	/* only now: a charge an ancestor refused must not show in a child's peak */
	for (c = counter; c; c = c->parent)
		update_watermark(c, page_counter_read(c));
	return true;
}

void page_counter_uncharge(struct page_counter *counter, unsigned long nr)
{
	for (struct page_counter *c = counter; c; c = c->parent) {
		unsigned long usage = usage_sub(c, nr);

		/* more uncharged than charged: a bug; keep the counter usable */
		if (WARN_ON_ONCE((long)usage < 0))
			__atomic_store_n(&c->usage, 0, __ATOMIC_RELAXED);
	}
}

void page_counter_set_max(struct page_counter *counter, unsigned long nr)
{
	WRITE_ONCE(counter->max, min(nr, PAGE_COUNTER_MAX));
}

void page_counter_set_high(struct page_counter *counter, unsigned long nr)
{
	WRITE_ONCE(counter->high, min(nr, PAGE_COUNTER_MAX));
}

unsigned long page_counter_margin(const struct page_counter *counter)
{
	unsigned long margin = PAGE_COUNTER_MAX;

	for (const struct page_counter *c = counter; c; c = c->parent) {
		unsigned long usage = page_counter_read(c), max = READ_ONCE(c->max);

		margin = min(margin, usage < max ? max - usage : 0UL);
	}
	return margin;
}
