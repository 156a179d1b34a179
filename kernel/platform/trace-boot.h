#ifndef CGWB_KERNEL_TRACE_BOOT_H
#define CGWB_KERNEL_TRACE_BOOT_H

/*
 * Tracing from the boot arguments, once tracefs exists: trace_event=LIST enables events as
 * Linux's boot argument does, cgwb.trace_stream=ttyS1 streams their lines to the second
 * serial port until power-off (scripts/run-qemu --trace FILE gives both).
 */
void trace_boot_init(void);

#endif
