/*
 * Pressure stall information (kernel/psi.c) in virtual time, with the real scheduler:
 * tasks in cgroups that sleep for IO, stall on memory or compete for the CPU make their
 * groups' (and the machine's) pressure rise, an idle group's stays 0, and the files are
 * in Linux's format. "full" needs every non-idle task of the group stalled.
 */
#include <criterion/criterion.h>
#include <cgwb/cgroup.h>
#include <cgwb/psi.h>
#include <cgwb/sched.h>
#include <cgwb/seq_buf.h>
#include <cgwb/string.h>
#include <stdio.h>
#include "host.h"
#include "../../../cg/cgroup/cgroup-internal.h"

static void setup(void)
{
	host_platform_init(32 << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(psi, .init = setup, .fini = teardown, .timeout = 60);

struct psi_line {
	double avg10, avg60, avg300;
	unsigned long long total;
};

/* Parse one line "NAME avg10=X avg60=X avg300=X total=N\n" and check that it prints back. */
static const char *parse_line(const char *p, const char *name, struct psi_line *l)
{
	unsigned int i10, f10, i60, f60, i300, f300;
	char again[128];
	int n = 0;

	cr_assert_eq(sscanf(p, "%*4s avg10=%u.%2u avg60=%u.%2u avg300=%u.%2u total=%llu\n%n", &i10,
			    &f10, &i60, &f60, &i300, &f300, &l->total, &n),
		     7, "not Linux's format: %s", p);
	snprintf(again, sizeof(again), "%s avg10=%u.%02u avg60=%u.%02u avg300=%u.%02u total=%llu\n",
		 name, i10, f10, i60, f60, i300, f300, l->total);
	cr_assert_eq(strncmp(p, again, strlen(again)), 0, "not Linux's format: %s", p);
	l->avg10 = i10 + f10 / 100.0;
	l->avg60 = i60 + f60 / 100.0;
	l->avg300 = i300 + f300 / 100.0;
	return p + strlen(again);
}

/* The "some" (full 0) or "full" (1) line of group's file for res, the format checked. */
static struct psi_line pressure(struct psi_group *group, enum psi_res res, int full)
{
	struct psi_line l[2];
	struct seq_buf s;
	char text[256];
	const char *p;

	seq_buf_init(&s);
	cr_assert_eq(psi_show(&s, group, res), 0);
	cr_assert_lt(s.len, sizeof(text));
	memcpy(text, s.buf, s.len);
	text[s.len] = '\0';
	seq_buf_free(&s);
	p = parse_line(text, "some", &l[0]);
	p = parse_line(p, "full", &l[1]);
	cr_assert_eq(*p, '\0', "two lines only: %s", text);
	return l[full];
}

static struct cgroup *mkgroup(const char *name)
{
	struct cgroup *cg;

	cr_assert_eq(cgroup_mkdir(&cgroup_root, name, &cg), 0);
	return cg;
}

static struct task_struct *start_in(struct cgroup *cg, int (*fn)(void *), void *arg)
{
	struct task_struct *t = kthread_create(fn, arg, "psi-test");

	cr_assert_not_null(t);
	cgroup_attach_task(cg, t);
	wake_up_process(t);
	return t;
}

/* Sleeps for "IO" 90 ms in every 100 ms, for 10 s. */
static int io_sleeper(void *arg)
{
	for (int i = 0; i < 100; i++) {
		int token = io_schedule_prepare();

		msleep(90);
		io_schedule_finish(token);
		host_consume_ns(10 * NSEC_PER_MSEC);
	}
	return 0;
}

/* Stalls on memory the same way. */
static int mem_staller(void *arg)
{
	for (int i = 0; i < 100; i++) {
		unsigned long pflags;

		psi_memstall_enter(&pflags);
		msleep(90);
		psi_memstall_leave(&pflags);
		host_consume_ns(10 * NSEC_PER_MSEC);
	}
	return 0;
}

/* Runs all the time, for 10 s. */
static int spinner(void *arg)
{
	for (int i = 0; i < 1000; i++)
		host_consume_ns(10 * NSEC_PER_MSEC);
	return 0;
}

Test(psi, io_waits_raise_io_pressure_and_an_idle_group_stays_at_zero)
{
	struct cgroup *a = mkgroup("a"), *idle = mkgroup("idle");
	struct task_struct *t = start_in(a, io_sleeper, NULL);
	struct psi_line some, full;

	host_run_for(10 * NSEC_PER_SEC);
	some = pressure(cgroup_psi(a), PSI_IO, 0);
	full = pressure(cgroup_psi(a), PSI_IO, 1);
	/* 90 % of the time stalled: avg10 has come most of the way (1 - e^-1) */
	cr_assert(some.avg10 > 50.0 && some.avg10 <= 90.5, "a io some avg10 %.2f", some.avg10);
	cr_assert(some.total > 8500000 && some.total < 9200000, "total %llu us", some.total);
	cr_assert_eq(full.total, some.total, "its only task: full is some");
	cr_assert_gt(pressure(&psi_system, PSI_IO, 0).total, 8500000, "counted machine-wide");
	some = pressure(cgroup_psi(idle), PSI_IO, 0);
	cr_assert(some.avg10 == 0 && some.avg60 == 0 && some.total == 0, "idle: %.2f %llu",
		  some.avg10, some.total);
	cr_assert_eq(pressure(cgroup_psi(a), PSI_MEM, 0).total, 0, "no memory stall");
	cr_assert_eq(kthread_join(t), 0);
	/* the averages decay once the stalls stop */
	host_run_for(60 * NSEC_PER_SEC);
	some = pressure(cgroup_psi(a), PSI_IO, 0);
	cr_assert_lt(some.avg10, 1.0, "avg10 after 60 s idle %.2f", some.avg10);
	cr_assert_gt(some.avg300, 0.5, "avg300 remembers");
}

Test(psi, a_running_task_beside_makes_it_some_not_full)
{
	struct cgroup *a = mkgroup("a");
	struct task_struct *t1 = start_in(a, io_sleeper, NULL), *t2 = start_in(a, spinner, NULL);
	struct psi_line some, full;

	host_run_for(10 * NSEC_PER_SEC);
	some = pressure(cgroup_psi(a), PSI_IO, 0);
	full = pressure(cgroup_psi(a), PSI_IO, 1);
	cr_assert_gt(some.total, 7000000, "some %llu", some.total);
	cr_assert_lt(full.total, some.total / 10, "full %llu beside some %llu", full.total,
		     some.total);
	cr_assert_eq(kthread_join(t1), 0);
	cr_assert_eq(kthread_join(t2), 0);
}

Test(psi, memory_stalls_raise_memory_pressure)
{
	struct cgroup *a = mkgroup("a");
	struct task_struct *t = start_in(a, mem_staller, NULL);
	struct psi_line some;

	host_run_for(10 * NSEC_PER_SEC);
	some = pressure(cgroup_psi(a), PSI_MEM, 0);
	cr_assert(some.avg10 > 50.0, "memory some avg10 %.2f", some.avg10);
	cr_assert_gt(pressure(cgroup_psi(a), PSI_MEM, 1).total, 8000000);
	cr_assert_eq(pressure(cgroup_psi(a), PSI_IO, 0).total, 0);
	cr_assert_eq(kthread_join(t), 0);
}

Test(psi, two_spinners_wait_for_the_cpu)
{
	struct cgroup *a = mkgroup("a"), *b = mkgroup("b");
	struct task_struct *t1 = start_in(a, spinner, NULL), *t2 = start_in(b, spinner, NULL);
	struct psi_line sa, fa;

	host_run_for(10 * NSEC_PER_SEC);
	sa = pressure(cgroup_psi(a), PSI_CPU, 0);
	fa = pressure(cgroup_psi(a), PSI_CPU, 1);
	/* each runs half the time: a waits while b runs, and a has nothing else running */
	cr_assert(sa.avg10 > 30.0 && sa.avg10 < 55.0, "a cpu some avg10 %.2f", sa.avg10);
	cr_assert_eq(fa.total, sa.total, "a's only task waits: full");
	cr_assert_eq(pressure(&psi_system, PSI_CPU, 1).total, 0, "no machine-wide cpu full");
	cr_assert_gt(pressure(&psi_system, PSI_CPU, 0).total, 8000000);
	cr_assert_eq(kthread_join(t1), 0);
	cr_assert_eq(kthread_join(t2), 0);
}

/*
 * A group whose only task sleeps for IO never waits for the CPU: cpu full stays 0. (The
 * averaging kept its idle snapshot in the CPU full slot, and from the second update on the
 * full sample was a difference of unrelated totals: avg10 near 83 with total 0.)
 */
Test(psi, cpu_full_stays_zero_beside_io_waits)
{
	struct cgroup *a = mkgroup("a");
	struct task_struct *t = start_in(a, io_sleeper, NULL);
	struct psi_line full;

	host_run_for(10 * NSEC_PER_SEC);
	full = pressure(cgroup_psi(a), PSI_CPU, 1);
	cr_assert_eq(full.total, 0, "cpu full total %llu", full.total);
	cr_assert(full.avg10 == 0 && full.avg60 == 0 && full.avg300 == 0,
		  "cpu full %.2f %.2f %.2f with total 0", full.avg10, full.avg60, full.avg300);
	cr_assert_eq(kthread_join(t), 0);
}

/* One IO wait of 1.5 s. */
static int one_stall(void *arg)
{
	int token = io_schedule_prepare();

	msleep(1500);
	io_schedule_finish(token);
	return 0;
}

/*
 * A 1.5 s stall after a long idle time: the sample is divided by the last period, not by
 * all the time since the last update (Linux keeps a fixed 2 s grid and counts the periods
 * missed as zeros), so avg10 shows it (Linux: about 13; it read 0.4).
 */
Test(psi, a_stall_after_an_idle_minute_shows_in_avg10)
{
	struct cgroup *a = mkgroup("a");
	struct task_struct *t;
	struct psi_line some;

	host_run_for(60 * NSEC_PER_SEC + NSEC_PER_SEC / 3);
	t = start_in(a, one_stall, NULL);
	cr_assert_eq(kthread_join(t), 0);
	host_run_for(NSEC_PER_SEC);
	some = pressure(cgroup_psi(a), PSI_IO, 0);
	cr_assert_gt(some.total, 1400000, "total %llu us", some.total);
	cr_assert_gt(some.avg10, 5.0, "avg10 %.2f after a 1.5 s stall", some.avg10);
	cr_assert_lt(some.avg10, 20.0, "avg10 %.2f", some.avg10);
}

/* Triggers are checked as Linux's psi_trigger_create(): state, stall, a 500 ms-10 s window. */
Test(psi, triggers_are_checked_as_linux_checks_them)
{
	static const char *const bad[] = {
		"",
		"some",
		"some 150000",
		"some 150000 1000000 7",
		"most 150000 1000000",
		"some 0 1000000",
		"some 150000 499999",
		"some 150000 10000001",
		"some 2000000 1000000",
		"some -5 1000000",
		"some 1e5 1000000",
		"some 99999999999999999999 1000000",
	};
	struct psi_trigger_spec spec;

	cr_assert_eq(psi_trigger_parse("some 150000 1000000\n", PSI_IO, &spec), 0);
	cr_assert_eq(spec.state, PSI_IO_SOME);
	cr_assert_eq(spec.threshold_us, 150000);
	cr_assert_eq(spec.window_us, 1000000);
	cr_assert_eq(psi_trigger_parse("full 500000 500000", PSI_MEM, &spec), 0);
	cr_assert_eq(spec.state, PSI_MEM_FULL);
	cr_assert_eq(psi_trigger_parse("some 1 10000000", PSI_CPU, &spec), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(psi_trigger_parse(bad[i], PSI_IO, &spec), -EINVAL, "'%s' taken", bad[i]);
}
