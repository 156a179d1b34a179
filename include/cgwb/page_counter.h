/*
 * Page counters: a usage in pages with limits, charged up a hierarchy so that a child never
 * takes an ancestor past its max (struct page_counter is in memcontrol.h). Lock-free: the
 * usage moves with atomic adds, and a charge that would pass a max is taken back.
 */
#ifndef CGWB_PAGE_COUNTER_H
#define CGWB_PAGE_COUNTER_H

#include <cgwb/memcontrol.h>

void page_counter_init(struct page_counter *counter, struct page_counter *parent);
static inline unsigned long page_counter_read(const struct page_counter *counter)
{
	return READ_ONCE(counter->usage);
}
/* Charge nr pages here and in every ancestor, whatever the limits (forced charges). */
void page_counter_charge(struct page_counter *counter, unsigned long nr);
/*
 * Charge nr pages unless that takes this counter or an ancestor past its max: then
 * nothing is charged, *fail is the counter at its limit, and false is returned.
 */
bool page_counter_try_charge(struct page_counter *counter, unsigned long nr,
			     struct page_counter **fail);
void page_counter_uncharge(struct page_counter *counter, unsigned long nr);
/* New limits (cgroup v2: taken even below the usage; the caller reclaims down to them). */
void page_counter_set_max(struct page_counter *counter, unsigned long nr);
void page_counter_set_high(struct page_counter *counter, unsigned long nr);
/* How many pages may still be charged here before this counter or an ancestor is full. */
unsigned long page_counter_margin(const struct page_counter *counter);

#endif
