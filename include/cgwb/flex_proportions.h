/*
 * Flexible proportions (Linux's lib/flex_proportions.c): each participant's share of recent
 * events with exponentially decaying history. Declaring a new period halves the weight of
 * everything before it; a local counter is aged lazily to the current period when used.
 */
#ifndef CGWB_FLEX_PROPORTIONS_H
#define CGWB_FLEX_PROPORTIONS_H

#include <cgwb/types.h>
#include <cgwb/spinlock.h>

#define FPROP_FRAC_SHIFT 10
#define FPROP_FRAC_BASE (1UL << FPROP_FRAC_SHIFT)

struct fprop_global {
	s64 events; /* decayed sum of all events; starts at 1, never 0 */
	unsigned int period;
	spinlock_t lock; /* the global and every local of it (irq-safe: completions add) */
};

struct fprop_local {
	s64 events;
	unsigned int period; /* the global period it was last aged to */
};

void fprop_global_init(struct fprop_global *p);
void fprop_local_init(struct fprop_local *pl);
/* Declare nr new periods; false (and no change) if there is nothing left to decay. */
bool fprop_new_period(struct fprop_global *p, int nr);
void fprop_add(struct fprop_global *p, struct fprop_local *pl, long nr);
/* Add at most up to a share of max_frac / FPROP_FRAC_BASE (bdi max_ratio). */
void fprop_add_max(struct fprop_global *p, struct fprop_local *pl, unsigned long max_frac, long nr);
/* The local share as num / den (0 <= num <= den, den > 0). */
void fprop_fraction(struct fprop_global *p, struct fprop_local *pl, unsigned long *num,
		    unsigned long *den);

#endif
