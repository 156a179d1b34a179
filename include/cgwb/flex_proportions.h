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

/**
 * fprop_global_init() - set up the global side of a proportion, with no events
 * @p: the global counter
 *
 * Context: any context; never sleeps.
 */
void fprop_global_init(struct fprop_global *p);
/**
 * fprop_local_init() - set up a participant's counter, with no events
 * @pl: the local counter
 *
 * Context: any context; never sleeps.
 */
void fprop_local_init(struct fprop_local *pl);
/**
 * fprop_new_period() - declare new periods: the history decays
 * @p: the global counter
 * @nr: how many periods passed; each halves the weight of the events before it
 *
 * The local counters are aged to the new period lazily, when next used.
 *
 * Context: any context; takes @p->lock (irq-safe); never sleeps.
 * Return: true, or false (nothing changed) if there was nothing left to decay.
 */
bool fprop_new_period(struct fprop_global *p, int nr);
void fprop_add(struct fprop_global *p, struct fprop_local *pl, long nr);
/**
 * fprop_add_max() - count events of a participant, up to a maximum share
 * @p: the global counter
 * @pl: the participant's counter
 * @max_frac: its maximum share, in 1/FPROP_FRAC_BASE (a bdi's max_ratio); at least
 *            FPROP_FRAC_BASE for no maximum
 * @nr: the events
 *
 * Only as many events are counted as keep the share at or below @max_frac.
 *
 * Context: any context, IO completion included; never sleeps.
 */
void fprop_add_max(struct fprop_global *p, struct fprop_local *pl, unsigned long max_frac, long nr);
/**
 * fprop_fraction() - a participant's share of the recent events
 * @p: the global counter
 * @pl: the participant's counter, aged to the current period here
 * @num: set to the share's numerator
 * @den: set to its denominator
 *
 * Context: any context; takes @p->lock (irq-safe); never sleeps.
 */
void fprop_fraction(struct fprop_global *p, struct fprop_local *pl, unsigned long *num,
		    unsigned long *den);

#endif
