#ifndef CGWB_KERNEL_HUNG_TASK_H
#define CGWB_KERNEL_HUNG_TASK_H

/*
 * Every task's state and stack on request, as Linux's SysRq-t (show_state()): the host
 * injects an NMI (QEMU's monitor `nmi`, scripts/run-qemu before it kills a guest that timed
 * out). The NMI only asks; the next tick wakes khungtaskd, which prints.
 */
void hung_task_nmi(void);
/* From the tick, interrupts off. */
void hung_task_tick(void);

#endif
