/*
 * The machine's setup, first thing after the boot code (Linux's setup_arch() and the start
 * of start_kernel()): CPU tables, the command line (GRUB's, then what the virtual machine
 * adds), memory, the clock, ACPI and the interrupt controllers. Interrupts stay off.
 */
#include <cgwb/platform.h>
#include <cgwb/printk.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/console.h>
#include <cgwb/bug.h>
#include "../arch/x86.h"
#include "../arch/fw_cfg.h"
#include "multiboot.h"
#include "cmdline.h"
#include "panic.h"

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

	if (!boot_file_read("opt/cgwb/cmdline", &extra, &len)) {
		cmdline_append(extra);
		kfree(extra);
		apply_early_args();
	}
}

int boot_file_read(const char *name, char **data, size_t *len)
{
	return fw_cfg_read_file(name, data, len);
}

void setup_arch(u32 magic, u32 info)
{
	load_percpu_segment(0);
	serial_init();
	int mb_err = multiboot_parse(magic, info);
	cmdline_parse(boot_info.cmdline);
	apply_early_args();
	gdt_init(0);
	idt_init();
	clock_init();
	if (mb_err)
		panic("not started by a multiboot2 loader (magic %#x)", magic);
	mem_init();
	kernel_pgd_prefill();
	user_cpu_init(0);
	load_runtime_cmdline();
	acpi_init(boot_info.has_rsdp ? boot_info.rsdp : NULL);
	apic_init();
	rtc_init();
}
