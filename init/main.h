/* System start-up's entry, called by the boot code (boot/entry.S) on the boot stack. */
#ifndef CGWB_INIT_MAIN_H
#define CGWB_INIT_MAIN_H

#include <cgwb/types.h>

void kmain(u32 magic, u32 info);
/* cgwb.rcutorture=SECONDS (init/rcu-torture.c): readers on every CPU against a writer. */
void rcu_torture_run(const char *seconds);

#endif
