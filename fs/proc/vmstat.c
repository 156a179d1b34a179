/* /proc/vmstat: "name value" per counter, in Linux's order (free pages, node state, thresholds, events). */
#include <cgwb/pseudofs.h>
#include <cgwb/mm.h>
#include <cgwb/vmstat.h>
#include <cgwb/writeback.h>
#include <cgwb/smp.h>
#include "proc.h"

static int vmstat_show(struct seq_buf *s, void *private)
{
	unsigned long bg, thresh;

	(void)private;
	seq_printf(s, "nr_free_pages %lu\n", nr_free_pages());
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		seq_printf(s, "%s %lu\n", node_stat_name((enum node_stat_item)i),
			   global_node_page_state_snapshot((enum node_stat_item)i));
	global_dirty_limits(&bg, &thresh);
	seq_printf(s, "nr_dirty_threshold %lu\n", thresh);
	seq_printf(s, "nr_dirty_background_threshold %lu\n", bg);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		seq_printf(s, "%s %lu\n", vm_event_name((enum vm_event_item)i),
			   global_vm_event((enum vm_event_item)i));
	seq_printf(s, "nr_tlb_local_flush_all %lu\n", arch_tlb_local_flushes());
	return 0;
}

void proc_vmstat_init(struct pseudo_node *root)
{
	pseudo_create_file(root, "vmstat", 0444, vmstat_show, NULL, NULL);
}
