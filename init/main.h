/* System start-up's entry, called by the boot code (boot/entry.S) on the boot stack. */
#ifndef CGWB_INIT_MAIN_H
#define CGWB_INIT_MAIN_H

#include <cgwb/types.h>

void kmain(u32 magic, u32 info);

#endif
