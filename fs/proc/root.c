/* /proc: a pseudo filesystem whose files each come from a file of this folder. */
#include <cgwb/pseudofs.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "../vfs.h"
#include "proc.h"

#define PROC_SUPER_MAGIC 0x9fa0

static struct pseudo_node *proc_root;

struct pseudo_node *pseudo_proc_root(void)
{
	return proc_root;
}

void proc_init(void)
{
	proc_root = pseudo_fs_register("proc", PROC_SUPER_MAGIC);
	BUG_ON(IS_ERR(proc_root));
	proc_meminfo_init(proc_root);
	proc_vmstat_init(proc_root);
	proc_misc_init(proc_root);
	proc_cpus_init(proc_root);
	proc_sys_vm_init(proc_root);
	proc_pressure_init(proc_root);
	proc_profile_init(proc_root);
	proc_slabinfo_init(proc_root);
}
