/* The files of /proc, each set up by its own file's init. */
#ifndef CGWB_FS_PROC_H
#define CGWB_FS_PROC_H

struct pseudo_node;

void proc_meminfo_init(struct pseudo_node *root);
void proc_vmstat_init(struct pseudo_node *root);
void proc_misc_init(struct pseudo_node *root);
void proc_cpus_init(struct pseudo_node *root);
void proc_sys_vm_init(struct pseudo_node *root);
void proc_pressure_init(struct pseudo_node *root);
void proc_profile_init(struct pseudo_node *root);
void proc_slabinfo_init(struct pseudo_node *root);

#endif
