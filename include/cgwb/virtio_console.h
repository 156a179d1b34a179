/* hvc0, the virtio console's output (drivers/virtio/virtio_console.c): the trace stream's port. */
#ifndef CGWB_VIRTIO_CONSOLE_H
#define CGWB_VIRTIO_CONSOLE_H

#include <cgwb/types.h>

/* After pci_init(): did a virtio console turn up? */
bool virtio_console_present(void);
/* Write n bytes to hvc0, waiting until the device took them; process context. 0 or -errno. */
int virtio_console_write(const char *s, size_t n);

#endif
