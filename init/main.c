/*
 * System start-up (Linux's init/main.c): kmain runs on the boot stack with interrupts off.
 * It has the platform set the machine up, registers the cgroup controllers, starts the
 * scheduler, and becomes the idle task after starting "init" (pid 1), which brings up
 * every subsystem in order and then runs the shell.
 */
#include <cgwb/exec.h>
#include <cgwb/profile.h>
#include <cgwb/platform.h>
#include <cgwb/printk.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/workqueue.h>
#include <cgwb/cgroup.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/blkdev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/fs.h>
#include <cgwb/console.h>
#include <cgwb/reboot.h>
#include <cgwb/ext2.h>
#include <cgwb/ext4.h>
#include <cgwb/pci.h>
#include <cgwb/virtio.h>
#include <cgwb/bug.h>
#include <cgwb/shell.h>
#include <cgwb/lockdep.h>
#include "main.h"
#include "selftest.h"
#include "trace-boot.h"

#define CGWB_VERSION "0.1"

/* cgwb.power_cut=N: the disks stop after N writes (crash-consistency tests). */
static void power_cut_init(void)
{
	const char *v = cmdline_get("cgwb.power_cut");
	u64 n;

	if (!v)
		return;
	if (kstrtoull(v, 10, &n))
		pr_err("cgwb.power_cut=%s: not a number of writes; ignored\n", v);
	else
		blk_set_power_cut(n);
}

static struct shutdown_hook vfs_shutdown_hook = { .fn = vfs_shutdown };
static const struct char_device console_dev = { .name = "console", .fops = &console_fops };

static int kernel_init(void *unused)
{
	char *script = NULL;
	size_t script_len = 0;

	(void)unused;
	smp_init();
	mem_init_late();
	workqueue_init();
	hung_task_init();
	profile_init(); /* its failure is told; the kernel runs without */
	/* the page cache and writeback, then the VFS before the disks appear */
	storage_init();
	syscalls_init(); /* before tracefs (vfs_init) lists the event systems */
	chrdev_init();
	console_init();
	register_chrdev(&console_dev);
	vfs_init();
	cgroup_fs_init();
	ext2_init();
	ext4_init();
	virtio_blk_init();
	virtio_console_init();
	pci_init();
	trace_boot_init(); /* tracefs and the stream's port are up; before the first mount */
	power_cut_init();  /* counted from the first write: the boot mount's */
	mount_boot_disk();
	register_shutdown_hook(&vfs_shutdown_hook);
	pr_info("cmdline: %s\n", cmdline_full());
	selftest_run(cmdline_get("cgwb.selftest"));
	if (cmdline_get("cgwb.rcutorture"))
		rcu_torture_run(cmdline_get("cgwb.rcutorture"));

	if (boot_file_read("opt/cgwb/script", &script, &script_len))
		script = NULL;
	pr_notice("cgwb %s: %lu MiB RAM, boot took %llu ms\n", CGWB_VERSION,
		  totalram_pages >> (20 - PAGE_SHIFT), ktime_get_ns() / NSEC_PER_MSEC);
	return shell_run_console(script);
}

void kmain(u32 magic, u32 info)
{
	setup_arch(magic, info);
	if (cmdline_get("lockdep"))
		lockdep_enable();
	cgroup_register_subsys(&memory_cgrp_subsys);
	cgroup_register_subsys(&io_cgrp_subsys);
	cgroup_register_subsys(&pids_cgrp_subsys);
	cgroup_init();
	sched_init();
	timer_tick_init();

	struct task_struct *init = kthread_run(kernel_init, NULL, "init");
	BUG_ON(!init);
	kthread_detach(init);
	local_irq_enable();
	cpu_idle_loop();
}
