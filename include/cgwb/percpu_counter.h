/*
 * Counters updated on many CPUs and read rarely, as Linux's percpu_counter: each CPU adds
 * into its own s32 and folds it into the shared s64 under the lock only when it reaches
 * +-batch, so an update touches its own CPU's cache line and the lock once per batch.
 *
 * The price is the read: percpu_counter_read() sees the shared count alone, off by less
 * than batch for each CPU; percpu_counter_sum() adds every CPU's part under the lock and is
 * exact for the instant it holds it. A caller comparing with a small bound uses the sum
 * (or percpu_counter_compare(), which sums only when the read is too close to tell).
 *
 * Updates are safe from interrupt handlers (a part moves only by atomic adds and exchanges).
 * There is no CPU hotplug: a CPU's part stays with it, so readers bound the error by the
 * possible CPUs (nr_cpu_ids), where Linux folds a dying CPU's part and counts online ones.
 */
#ifndef CGWB_PERCPU_COUNTER_H
#define CGWB_PERCPU_COUNTER_H

#include <cgwb/spinlock.h>
#include <cgwb/smp.h>
#include <cgwb/gfp.h>

struct percpu_counter {
	spinlock_t lock;
	s64 count;
	s32 *counters; /* CPU c's part is counters[c * PERCPU_COUNTER_STRIDE] */
};

/*
 * Each CPU's parts of counters set up together (percpu_counter_init_many()) share one cache
 * line, and no other CPU's: at most this many counters in one set.
 */
#define PERCPU_COUNTER_STRIDE 16

/* max(32, 2 x online CPUs), as Linux: the default batch of percpu_counter_add(). */
extern s32 percpu_counter_batch;
/**
 * percpu_counter_compute_batch() - CPUs came online: the default batch follows them
 *
 * percpu_counter_batch becomes max(32, 2 x online CPUs), as Linux's.
 *
 * Context: any context.
 */
void percpu_counter_compute_batch(void);

/**
 * percpu_counter_init_many() - set up a set of per-CPU counters
 * @fbc: the counters, an array of @nr
 * @amount: the count each starts at
 * @gfp: how to allocate the CPUs' parts
 * @nr: how many, 1 to PERCPU_COUNTER_STRIDE; each CPU's parts of the set share one cache
 *      line, one allocation for all
 *
 * Context: as kmalloc() with @gfp.
 * Return: 0, or -ENOMEM.
 */
int percpu_counter_init_many(struct percpu_counter *fbc, s64 amount, gfp_t gfp, unsigned int nr);
/**
 * percpu_counter_destroy_many() - free a set of per-CPU counters' parts
 * @fbc: the counters, set up together by percpu_counter_init_many(); nothing is done if
 *       they are not (or no longer) set up
 * @nr: how many
 *
 * Context: any context; never sleeps.
 */
void percpu_counter_destroy_many(struct percpu_counter *fbc, unsigned int nr);

static inline int percpu_counter_init(struct percpu_counter *fbc, s64 amount, gfp_t gfp)
{
	return percpu_counter_init_many(fbc, amount, gfp, 1);
}
static inline void percpu_counter_destroy(struct percpu_counter *fbc)
{
	percpu_counter_destroy_many(fbc, 1);
}

/**
 * percpu_counter_add_batch() - add to a per-CPU counter
 * @fbc: the counter
 * @amount: what to add (negative to subtract)
 * @batch: the CPU's part folds into the shared count under the lock once it would reach
 *         +-@batch
 *
 * Context: any context, interrupt handlers included; never sleeps.
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch);
/**
 * __percpu_counter_sum() - a per-CPU counter's exact value
 * @fbc: the counter
 *
 * Every CPU's part added to the shared count, under the lock: exact at the instant the
 * lock is held.
 *
 * Context: any context; takes the counter's irq-safe lock; never sleeps.
 * Return: the sum.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc);
/* 1, 0, -1 as fbc is above, at or below rhs; exact, and cheap when clearly apart. */
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch);

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, percpu_counter_batch);
}
static inline void percpu_counter_sub(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add(fbc, -amount);
}
static inline void percpu_counter_inc(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, 1);
}
static inline void percpu_counter_dec(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, -1);
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	return __percpu_counter_compare(fbc, rhs, percpu_counter_batch);
}

/* The shared count without the CPUs' parts: cheap, off by < batch x nr_cpu_ids. */
static inline s64 percpu_counter_read(const struct percpu_counter *fbc)
{
	return READ_ONCE(fbc->count);
}

/* The parts may leave a count of a never-negative quantity below 0 for a while. */
static inline s64 percpu_counter_read_positive(const struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);

	return ret >= 0 ? ret : 0;
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	s64 ret = __percpu_counter_sum(fbc);

	return ret >= 0 ? ret : 0;
}

#endif
