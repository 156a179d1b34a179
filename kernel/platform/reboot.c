/*
 * Orderly power-off: run the registered shutdown hooks (filesystems sync and unmount there)
 * before the machine goes away, then end the trace stream, if one runs, with everything
 * recorded until then (the hooks' own writeback included).
 */
#include <cgwb/list.h>
#include <cgwb/printk.h>
#include <cgwb/reboot.h>
#include <cgwb/trace.h>

static LIST_HEAD(shutdown_hooks);

void register_shutdown_hook(struct shutdown_hook *hook)
{
	list_add(&hook->node, &shutdown_hooks);
}

__noreturn void kernel_poweroff(int code)
{
	struct shutdown_hook *hook;

	list_for_each_entry(hook, &shutdown_hooks, node)
		hook->fn();
	trace_stream_stop();
	pr_info("reboot: power down (status %d)\n", code);
	machine_poweroff(code);
}
