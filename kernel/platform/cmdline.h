/* Kernel arguments: grub.cfg's multiboot2 line plus fw_cfg's opt/cgwb/cmdline. */
#ifndef CGWB_KERNEL_CMDLINE_H
#define CGWB_KERNEL_CMDLINE_H

#include <cgwb/platform.h>

void cmdline_parse(const char *boot_cmdline);
/* Append arguments given at run time (later ones override earlier ones). */
void cmdline_append(const char *more);
/* Value of key=value (the last one given), "" for a bare key, NULL if absent. */

#endif
