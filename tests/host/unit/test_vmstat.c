/*
 * The node page counters per CPU (virtual CPUs, host_set_cpu): each CPU's difference folds
 * into the shared count past the threshold, so the cheap read is off by at most
 * CPUs x threshold, and the snapshot is exact at rest.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/smp.h>
#include <cgwb/sched.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(256 << 20);
}

static void teardown(void)
{
	host_set_cpu(0);
	host_platform_exit();
}

TestSuite(vmstat, .init = setup, .fini = teardown);

static void mod_on(unsigned int cpu, long n)
{
	host_set_cpu(cpu);
	mod_node_page_state(NR_DIRTIED, n);
	host_set_cpu(0);
}

/* Linux's calculate_normal_threshold(): 2 x fls(CPUs) x (1 + fls(memory / 128 MiB)). */
static int threshold(void)
{
	unsigned long mem = totalram_pages >> (27 - PAGE_SHIFT);
	int f = mem ? 64 - __builtin_clzl(mem) : 0;

	return 2 * 1 * (1 + f);
}

Test(vmstat, without_a_threshold_every_update_folds)
{
	long before = (long)global_node_page_state(NR_DIRTIED);

	mod_node_page_state(NR_DIRTIED, 1);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), before + 1);
	mod_node_page_state(NR_DIRTIED, -1);
}

Test(vmstat, a_difference_folds_past_the_threshold)
{
	long base = global_node_page_state_signed(NR_DIRTIED);
	int t;

	refresh_node_stat_thresholds();
	t = threshold();
	cr_assert_geq(t, 4, "a 256 MiB machine on one CPU: %d", t);
	host_set_nr_cpus(2);
	mod_on(1, t);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base, "still CPU 1's");
	cr_assert_eq(global_node_page_state_signed(NR_DIRTIED), base + t);
	mod_on(1, 1);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base + t + 1, "folded");
	cr_assert_eq(global_node_page_state_signed(NR_DIRTIED), base + t + 1);
}

Test(vmstat, read_error_stays_under_cpus_times_threshold)
{
	long exact = global_node_page_state_signed(NR_DIRTIED);
	u64 seed = 7;
	long worst = 0;
	int t;

	refresh_node_stat_thresholds();
	t = threshold();
	host_set_nr_cpus(8);
	for (int i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned int cpu = (unsigned int)(seed >> 33) % 8;
		long n = (long)((seed >> 40) % 5) - 1; /* -1..3 */
		long err;

		mod_on(cpu, n);
		exact += n;
		err = labs(exact - (long)global_node_page_state(NR_DIRTIED));
		cr_assert_leq(err, 8L * t, "read off by %ld after %d updates", err, i);
		worst = err > worst ? err : worst;
		cr_assert_eq(global_node_page_state_signed(NR_DIRTIED), exact);
	}
	cr_assert_gt(worst, 2L * t, "the differences hid little: %ld", worst);
}

/*
 * Background folding (vmstat_update, quiet_vmstat): differences parked on a busy CPU reach
 * the shared count within sysctl_stat_interval, and an idling CPU folds its own at once.
 */
Test(vmstat, differences_fold_in_the_background_within_a_second)
{
	long base = global_node_page_state_signed(NR_DIRTIED);
	int t;

	host_set_nr_cpus(2);
	refresh_node_stat_thresholds(); /* starts the per-CPU works: due at 1 s */
	t = threshold();
	mod_on(1, t - 1);
	mod_on(0, t - 1);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base, "both below the threshold");

	msleep(1); /* CPU 0 idles: its difference folds, CPU 1's (busy) waits for its work */
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base + t - 1);
	host_advance_to(NSEC_PER_SEC - NSEC_PER_MSEC);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base + t - 1, "folded early");
	host_advance_to(NSEC_PER_SEC);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base + 2 * t - 2,
		     "CPU 1's difference not folded within a second");

	/* and again, every second */
	mod_on(1, -(t - 1));
	host_run_for(NSEC_PER_SEC);
	cr_assert_eq((long)global_node_page_state(NR_DIRTIED), base + t - 1);
	cr_assert_eq(global_node_page_state_signed(NR_DIRTIED), base + t - 1);
}
