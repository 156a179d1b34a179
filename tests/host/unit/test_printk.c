/* printk (kernel/printk.c): timestamps on virtual time, levels, continuation, the ring. */
#include <stdlib.h>
#include <criterion/criterion.h>
#include <cgwb/printk.h>
#include <cgwb/sched.h>
#include <cgwb/timer.h>
#include "host.h"

#define MS(x) ((u64)(x)*NSEC_PER_MSEC)
#define RING_SIZE (128 * 1024) /* LOG_BUF_SIZE in kernel/printk.c */

static void setup(void)
{
	host_platform_init(4 << 20);
	host_log_clear();
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(printk, .init = setup, .fini = teardown);

Test(printk, timestamps_follow_virtual_time)
{
	printk(KERN_INFO "at zero\n");
	host_run_for(MS(1));
	printk(KERN_INFO "one millisecond\n");
	host_advance_to(12345678 * NSEC_PER_USEC + 999);
	pr_info("later %d\n", 42);
	cr_assert_str_eq(host_log(), "[    0.000000] at zero\n"
				     "[    0.001000] one millisecond\n"
				     "[   12.345678] later 42\n");
}

Test(printk, every_line_of_a_message_is_stamped)
{
	host_run_for(MS(2));
	printk(KERN_INFO "first\nsecond\n");
	cr_assert_str_eq(host_log(), "[    0.002000] first\n[    0.002000] second\n");
}

Test(printk, levels_are_parsed_and_stripped)
{
	pr_err("an error\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_ERR);
	pr_debug("debugging\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_DEBUG);
	printk(KERN_EMERG "the end\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_EMERG);
	printk("no level\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_WARNING, "the default message level");
	cr_assert_not(host_log_contains(KERN_SOH), "level markers never reach the text");
	cr_assert(host_log_contains("] an error\n"));
	cr_assert(host_log_contains("] debugging\n"), "the host keeps every level");
}

Test(printk, cont_continues_the_line_with_its_level)
{
	pr_notice("counting:");
	host_run_for(MS(5));
	pr_cont(" one");
	pr_cont(" two\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_NOTICE, "a continuation keeps the line's level");
	cr_assert_str_eq(host_log(), "[    0.000000] counting: one two\n");
}

Test(printk, a_new_message_ends_an_unfinished_line)
{
	pr_info("unfinished");
	host_run_for(MS(3));
	pr_err("something else\n");
	cr_assert_str_eq(host_log(), "[    0.000000] unfinished\n"
				     "[    0.003000] something else\n");
	cr_assert_eq(host_log_last_level(), LOGLEVEL_ERR);
}

static void timer_printk(struct timer_list *t)
{
	(void)t;
	pr_info("from a timer\n");
}

Test(printk, works_in_interrupt_context)
{
	struct timer_list t;

	timer_setup(&t, timer_printk, 0);
	mod_timer(&t, 7);
	host_run_for(MS(10));
	cr_assert_str_eq(host_log(), "[    0.007000] from a timer\n");
}

Test(printk, the_ring_wraps_and_keeps_the_newest)
{
	size_t before = log_buf_len();
	char *ring = malloc(RING_SIZE + 1), *all;
	size_t n, all_len;

	cr_assert_lt(before, RING_SIZE / 2);
	for (int i = 0; i < 3000; i++)
		printk(KERN_INFO "message %04d: %s\n", i, "padding padding padding padding");
	cr_assert_eq(log_buf_len(), RING_SIZE);

	n = log_buf_copy(ring, RING_SIZE + 1, 0);
	cr_assert_eq(n, RING_SIZE);
	ring[n] = '\0';
	/* the ring holds exactly the newest RING_SIZE bytes of everything logged */
	all = (char *)host_log();
	all_len = strlen(all);
	cr_assert_geq(all_len, RING_SIZE);
	cr_assert_eq(memcmp(ring, all + all_len - RING_SIZE, RING_SIZE), 0);
	cr_assert_not_null(strstr(ring, "message 2999: padding"));
	cr_assert_null(strstr(ring, "message 0000:"), "the oldest was overwritten");

	/* skip counts from the oldest byte; past the end there is nothing */
	char tail[64];
	n = log_buf_copy(tail, sizeof(tail), RING_SIZE - 10);
	cr_assert_eq(n, 10);
	cr_assert_eq(memcmp(tail, ring + RING_SIZE - 10, 10), 0);
	cr_assert_eq(log_buf_copy(tail, sizeof(tail), RING_SIZE), 0);
	free(ring);
}
