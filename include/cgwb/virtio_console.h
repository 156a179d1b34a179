/* hvc0, the virtio console's output (drivers/virtio/virtio_console.c): the trace stream's port. */
#ifndef CGWB_VIRTIO_CONSOLE_H
#define CGWB_VIRTIO_CONSOLE_H

#include <cgwb/types.h>

/**
 * virtio_console_present() - did a virtio console turn up?
 *
 * Context: any context, after pci_init().
 * Return: true if hvc0 exists.
 */
bool virtio_console_present(void);
/**
 * virtio_console_write() - write bytes to hvc0
 * @s: the bytes
 * @n: how many; sent a page at a time
 *
 * Waits until the device took them.
 *
 * Context: process context; sleeps; takes the port's mutex.
 * Return: 0, -ENODEV without a virtio console, or the device's negative errno.
 */
int virtio_console_write(const char *s, size_t n);

#endif
