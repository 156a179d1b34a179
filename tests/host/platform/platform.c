/* Bringing the host platform up and down: the host's kmain. */
#include <cgwb/printk.h>
#include <cgwb/mm.h>
#include <cgwb/cgroup.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/fs.h>
#include <cgwb/workqueue.h>
#include <cgwb/bug.h>
#include <cgwb/lockdep.h>
#include "host_internal.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/*
 * Portable code keeps its state in statics (timer list, workqueue manager, printk ring):
 * a second init in the same process would inherit pointers into the freed arena.
 */
enum { HOST_DOWN, HOST_UP, HOST_GONE };
static int state = HOST_DOWN;

bool host_platform_up(void)
{
	return state == HOST_UP;
}

void host_check_initialized(const char *what)
{
	if (state != HOST_UP)
		panic("host: %s() needs host_platform_init() first", what);
}

void host_platform_init(size_t mem_bytes)
{
	if (state != HOST_DOWN)
		panic("host: host_platform_init() runs once per process");
	lockdep_enable(); /* every host test runs under the lock validator */
	host_log_init();
	host_clock_reset();
	host_mem_init(mem_bytes);
	cgroup_register_subsys(&memory_cgrp_subsys);
	cgroup_register_subsys(&io_cgrp_subsys);
	cgroup_init();
	host_sched_init();
	state = HOST_UP;
	chrdev_init();
	workqueue_init();
	pr_info("host: %lu pages of memory (%lu reserved), %u tasks\n", totalram_pages,
		totalreserve_pages, nr_tasks());
	/* let the workers reach their wait: tests start from a quiet system at time 0 */
	host_run_until_idle();
}

void host_platform_exit(void)
{
	if (lockdep_reports())
		panic("host: the lock validator reported (see the log above)");
	if (state != HOST_UP)
		return;
	state = HOST_GONE;
	host_sched_exit();
	host_mem_exit();
	host_log_exit();
#ifdef __SANITIZE_ADDRESS__
	/*
	 * Criterion has reported the test by the time LeakSanitizer runs at exit: check now. Not
	 * in a seed's child process (seeds.c): fork() left the runner's threads in LeakSanitizer's
	 * registry, which it cannot stop, and it would warn of false leaks.
	 */
	if (!host_seed_child && __lsan_do_recoverable_leak_check())
		panic("host: memory leaked (LeakSanitizer's report is above)");
#endif
}
