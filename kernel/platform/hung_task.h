/* The hung-task detector (hung_task.c). */
#ifndef CGWB_KERNEL_HUNG_TASK_H
#define CGWB_KERNEL_HUNG_TASK_H

/* Start khungtaskd unless hung_task_timeout_secs=0. */
void hung_task_init(void);

#endif
