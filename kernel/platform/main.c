/*
 * Boot sequence. kmain runs on the boot stack with interrupts off: it sets up the CPU
 * tables, memory, time and interrupt routing, then becomes the idle task after starting
 * "init" (pid 1), which brings up the rest and runs the shell.
 */
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
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/ext2.h>
#include <cgwb/pci.h>
#include <cgwb/bug.h>
#include <cgwb/shell.h>
#include "../arch/x86.h"
#include "../arch/fw_cfg.h"
#include "multiboot.h"
#include "cmdline.h"
#include "hung_task.h"
#include <cgwb/console.h>
#include "panic.h"
#include <cgwb/reboot.h>
#include "../sched-internal.h"
#include "selftest.h"
#include "trace-boot.h"

#define CGWB_VERSION "0.1"

static void apply_early_args(void)
{
	const char *v;
	int level;

	if ((v = cmdline_get("loglevel")) && !kstrtoint(v, 10, &level))
		console_loglevel = clamp(level, 0, 8);
	if (cmdline_get("quiet"))
		console_loglevel = LOGLEVEL_WARNING;
	panic_set_action(cmdline_get("cgwb.panic"));
}

static void load_runtime_cmdline(void)
{
	char *extra;
	size_t len;

	if (!fw_cfg_read_file("opt/cgwb/cmdline", &extra, &len)) {
		cmdline_append(extra);
		kfree(extra);
		apply_early_args();
	}
}

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

static int kernel_init(void *unused)
{
	char *script = NULL;
	size_t script_len = 0;

	(void)unused;
	workqueue_init();
	hung_task_init();
	/* the page cache and writeback, then the VFS before the disks appear */
	storage_init();
	chrdev_init();
	console_init();
	vfs_init();
	cgroup_fs_init();
	ext2_init();
	pci_init();
	trace_boot_init(); /* tracefs and the stream's port are up; before the first mount */
	power_cut_init();  /* counted from the first write: the boot mount's */
	mount_boot_disk();
	register_shutdown_hook(&vfs_shutdown_hook);
	pr_info("cmdline: %s\n", cmdline_full());
	selftest_run(cmdline_get("cgwb.selftest"));

	if (fw_cfg_read_file("opt/cgwb/script", &script, &script_len))
		script = NULL;
	pr_notice("cgwb %s: %lu MiB RAM, boot took %llu ms\n", CGWB_VERSION,
		  totalram_pages >> (20 - PAGE_SHIFT), ktime_get_ns() / NSEC_PER_MSEC);
	return shell_run_console(script);
}

void kmain(u32 magic, u32 info)
{
	serial_init();
	int mb_err = multiboot_parse(magic, info);
	cmdline_parse(boot_info.cmdline);
	apply_early_args();
	gdt_init();
	idt_init();
	clock_init();
	if (mb_err)
		panic("not started by a multiboot2 loader (magic %#x)", magic);
	mem_init();
	load_runtime_cmdline();
	acpi_init(boot_info.has_rsdp ? (u64)(uintptr_t)boot_info.rsdp : 0);
	apic_init();
	rtc_init();
	cgroup_register_subsys(&memory_cgrp_subsys);
	cgroup_register_subsys(&io_cgrp_subsys);
	cgroup_init();
	sched_init();
	timer_tick_init();

	struct task_struct *init = kthread_run(kernel_init, NULL, "init");
	BUG_ON(!init);
	kthread_detach(init);
	local_irq_enable();
	cpu_idle_loop();
}
