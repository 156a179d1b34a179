#ifndef CGWB_KERNEL_TRACE_BOOT_H
#define CGWB_KERNEL_TRACE_BOOT_H

/*
 * Tracing from the boot arguments, once tracefs and the PCI devices are up: trace_event=LIST
 * enables events as Linux's boot argument does, cgwb.trace_stream=hvc0 streams their lines
 * to the virtio console until power-off (scripts/run-qemu --trace FILE gives both).
 */
void trace_boot_init(void);

#endif
