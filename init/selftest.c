/*
 * Deliberate faults for the system tests of the error-reporting paths, and checks of what
 * only a running machine shows (cgwb.selftest=).
 */
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/irqflags.h>
#include "selftest.h"

/* noinline so each shows up as its own frame in the backtrace the tests look for */
static __attribute__((noinline)) void selftest_pagefault(void)
{
	uintptr_t addr = 0x10;

	__asm__("" : "+r"(addr)); /* hide the constant so the compiler cannot object */
	*(volatile int *)addr = 42;
}

static __attribute__((noinline)) void selftest_gp(void)
{
	uintptr_t addr = 0x8000000000000000ULL;

	__asm__("" : "+r"(addr));
	(void)*(volatile u64 *)addr;
}

static __attribute__((noinline)) void selftest_divide(void)
{
	u32 zero = 0;
	__asm__ volatile("movl $1, %%eax; xorl %%edx, %%edx; divl %0" : : "r"(zero) : "eax", "edx");
}

/* A task asleep for good (TASK_UNINTERRUPTIBLE): the hung-task detector must name it. */
static DECLARE_WAIT_QUEUE_HEAD(selftest_never_woken);

static __attribute__((noinline)) int selftest_hung_task(void *unused)
{
	(void)unused;
	wait_event(selftest_never_woken, false);
	return 0;
}

static void selftest_hung(void)
{
	struct task_struct *t = kthread_run(selftest_hung_task, NULL, "selftest-hung");

	if (t)
		kthread_detach(t);
}

/* A kernel that stops with interrupts off: no tick, no hung-task report, no log line. Only
 * the host sees where it is (scripts/run-qemu's report of every CPU after a timeout). */
static __attribute__((noinline)) __noreturn void selftest_stall(void)
{
	local_irq_disable();
	for (;;)
		cpu_relax();
}

void selftest_run(const char *what)
{
	if (!what)
		return;
	pr_notice("selftest: triggering '%s'\n", what);
	if (!strcmp(what, "pagefault"))
		selftest_pagefault();
	else if (!strcmp(what, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(what, "gp"))
		selftest_gp();
	else if (!strcmp(what, "divide"))
		selftest_divide();
	else if (!strcmp(what, "panic"))
		panic("selftest: requested panic");
	else if (!strcmp(what, "bug"))
		BUG_ON(what != NULL);
	else if (!strcmp(what, "hung"))
		selftest_hung();
	else if (!strcmp(what, "stall"))
		selftest_stall();
	else if (!strcmp(what, "warn"))
		WARN_ON_ONCE(what != NULL);
	else if (!strcmp(what, "tlb-shootdown"))
		selftest_tlb_shootdown();
	else if (!strcmp(what, "workqueue-pools"))
		selftest_workqueue_pools();
	else
		pr_err("selftest: unknown trigger '%s'\n", what);
}
