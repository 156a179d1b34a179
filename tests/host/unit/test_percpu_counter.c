/*
 * Per-CPU counters on virtual CPUs (host_set_cpu): what a read misses is bounded by batch x
 * nr_cpu_ids, what a sum returns is exact, and compare() is exact even where the read is not.
 */
#include <criterion/criterion.h>
#include <cgwb/percpu_counter.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(16 << 20);
}

static void teardown(void)
{
	host_set_cpu(0);
	host_platform_exit();
}

TestSuite(percpu_counter, .init = setup, .fini = teardown);

static void add_on(struct percpu_counter *fbc, unsigned int cpu, s64 amount, s32 batch)
{
	host_set_cpu(cpu);
	percpu_counter_add_batch(fbc, amount, batch);
	host_set_cpu(0);
}

Test(percpu_counter, parts_below_the_batch_are_missed_by_a_read_not_by_a_sum)
{
	struct percpu_counter c;
	unsigned int cpu;

	host_set_nr_cpus(4);
	cr_assert_eq(percpu_counter_init(&c, 5, GFP_KERNEL), 0);
	for (cpu = 0; cpu < 4; cpu++)
		add_on(&c, cpu, 31, 32);
	cr_assert_eq(percpu_counter_read(&c), 5);
	cr_assert_eq(percpu_counter_sum(&c), 5 + 4 * 31);
	/* the batch reached on CPU 2: its whole part goes to the shared count */
	add_on(&c, 2, 1, 32);
	cr_assert_eq(percpu_counter_read(&c), 5 + 32);
	cr_assert_eq(percpu_counter_sum(&c), 5 + 4 * 31 + 1);
	percpu_counter_destroy(&c);
}

Test(percpu_counter, negative_parts_fold_at_minus_batch_and_positive_reads_clamp)
{
	struct percpu_counter c;

	host_set_nr_cpus(2);
	cr_assert_eq(percpu_counter_init(&c, 0, GFP_KERNEL), 0);
	add_on(&c, 1, 20, 32);
	add_on(&c, 0, -32, 32); /* folds: the shared count goes below 0 */
	cr_assert_eq(percpu_counter_read(&c), -32);
	cr_assert_eq(percpu_counter_read_positive(&c), 0);
	cr_assert_eq(percpu_counter_sum(&c), -12);
	cr_assert_eq(percpu_counter_sum_positive(&c), 0);
	add_on(&c, 0, 30, 32);
	cr_assert_eq(percpu_counter_sum_positive(&c), 18);
	percpu_counter_destroy(&c);
}

/* A seeded walk of adds of both signs on 8 CPUs, checked against the exact count. */
Test(percpu_counter, read_error_stays_under_batch_times_cpus_and_sums_stay_exact)
{
	const s32 batch = 8 * (1 + 3); /* WB_STAT_BATCH at 8 CPUs */
	struct percpu_counter c;
	u64 seed = 0x9e3779b97f4a7c15ULL;
	s64 exact = 0, worst = 0;
	int i;

	host_set_nr_cpus(8);
	cr_assert_eq(percpu_counter_init(&c, 0, GFP_KERNEL), 0);
	for (i = 0; i < 20000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned int cpu = (unsigned int)(seed >> 33) % 8;
		s64 amount = (s64)((seed >> 40) % 7) - 2; /* -2..4: the count drifts up */
		s64 err;

		add_on(&c, cpu, amount, batch);
		exact += amount;
		err = exact - percpu_counter_read(&c);
		if (err < 0)
			err = -err;
		cr_assert_lt(err, (s64)batch * 8, "read off by %lld after %d adds", err, i);
		worst = err > worst ? err : worst;
		if (i % 97 == 0)
			cr_assert_eq(percpu_counter_sum(&c), exact);
	}
	cr_assert_eq(percpu_counter_sum(&c), exact);
	/* the bound is not vacuous: the parts really hide a good share of it */
	cr_assert_gt(worst, (s64)batch * 2, "worst error %lld", worst);
	percpu_counter_destroy(&c);
}

Test(percpu_counter, compare_sums_when_the_read_is_too_close_to_tell)
{
	struct percpu_counter c;
	unsigned int cpu;

	host_set_nr_cpus(4);
	cr_assert_eq(percpu_counter_init(&c, 0, GFP_KERNEL), 0);
	for (cpu = 0; cpu < 4; cpu++)
		add_on(&c, cpu, 25, 32);
	/* the read says 0: alone it would put the counter below 60 */
	cr_assert_eq(__percpu_counter_compare(&c, 60, 32), 1);
	cr_assert_eq(__percpu_counter_compare(&c, 100, 32), 0);
	cr_assert_eq(__percpu_counter_compare(&c, 101, 32), -1);
	/* far apart: the read decides */
	cr_assert_eq(__percpu_counter_compare(&c, 1000, 32), -1);
	percpu_counter_destroy(&c);
}

Test(percpu_counter, counters_set_up_together_are_independent)
{
	struct percpu_counter c[4];
	int i;

	host_set_nr_cpus(2);
	cr_assert_eq(percpu_counter_init_many(c, 7, GFP_KERNEL, 4), 0);
	for (i = 0; i < 4; i++)
		add_on(&c[i], 1, i + 1, 32);
	for (i = 0; i < 4; i++) {
		cr_assert_eq(percpu_counter_read(&c[i]), 7);
		cr_assert_eq(percpu_counter_sum(&c[i]), 7 + i + 1);
	}
	percpu_counter_destroy_many(c, 4);
	cr_assert_null(c[3].counters);
}

/* Linux's max(32, 2 x online CPUs); at most 8 CPUs here, so 32. */
Test(percpu_counter, default_batch_follows_the_online_cpus)
{
	percpu_counter_compute_batch();
	cr_assert_eq(percpu_counter_batch, 32);
}
