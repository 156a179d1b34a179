/* /sys and /sys/kernel/debug, shared by the files of this folder. */
#ifndef CGWB_FS_SYSFS_H
#define CGWB_FS_SYSFS_H

struct pseudo_node;
struct backing_dev_info;

void debugfs_add_bdi(struct backing_dev_info *bdi);
/* /sys/class/bdi/MAJ:MIN and its knobs. */
void sysfs_add_bdi(struct backing_dev_info *bdi);

#endif
