/*
 * virtio-console (VIRTIO 1.1 specification, 5.3), output only: hvc0, the trace stream's
 * channel to the host (kernel/trace-stream.c, scripts/run-qemu --trace). Linux's driver is
 * drivers/char/virtio_console.c.
 *
 * One port: without VIRTIO_CONSOLE_F_MULTIPORT the device has port 0 only, whose transmitq
 * is virtqueue 1; the receiveq (0) is left unset, as nothing is read from the host. A write
 * copies up to a page into the device's one buffer, makes it available, notifies, and waits
 * until the device has taken it: QEMU does so during the notification, so the wait is a
 * check, and a jiffy's sleep if a slow backend holds the buffer. No interrupts (the queue
 * asks for none and INTx is off). The one writer is the stream's thread; the mutex keeps
 * any other out of the buffer.
 */
#define pr_fmt(fmt) "virtio_console: " fmt

#include "virtio_pci.h"
#include <cgwb/virtio_console.h>
#include <cgwb/mm.h>
#include <cgwb/mutex.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>

#define VIRTCON_TRANSMITQ 1
#define VIRTCON_RING 8u

struct virtio_console {
	struct virtio_pci_device *vp;
	struct virtqueue *tx;
	char *buf; /* one page the device reads; ours again once the device gave it back */
	struct mutex lock;
};

static struct virtio_console *hvc0; /* the first one found, or NULL */

bool virtio_console_present(void)
{
	return hvc0;
}

/* Hand buf's first len bytes over and wait until the device gave the buffer back. */
static int virtcon_send(struct virtio_console *vc, size_t len)
{
	struct vq_sg sg = { virt_to_phys(vc->buf), (u32)len };
	int err = virtqueue_add_sgs(vc->tx, &sg, 1, 0, vc->buf, NULL);

	if (err)
		return err;
	virtqueue_kick(vc->tx);
	while (!virtqueue_get_buf(vc->tx, NULL)) {
		if (vc->tx->broken)
			return -EIO;
		schedule_timeout_uninterruptible(1);
	}
	return 0;
}

int virtio_console_write(const char *s, size_t n)
{
	struct virtio_console *vc = hvc0;
	int err = 0;

	if (!vc)
		return -ENODEV;
	mutex_lock(&vc->lock);
	while (n && !err) {
		size_t len = min(n, (size_t)PAGE_SIZE);

		memcpy(vc->buf, s, len);
		err = virtcon_send(vc, len);
		s += len;
		n -= len;
	}
	mutex_unlock(&vc->lock);
	return err;
}

static int virtio_console_probe(struct virtio_pci_device *vp)
{
	struct virtio_console *vc;
	int err;

	vp_reset(vp);
	vp_add_status(vp, VIRTIO_CONFIG_S_ACKNOWLEDGE | VIRTIO_CONFIG_S_DRIVER);
	if (!(vp_get_features(vp) & (1ULL << VIRTIO_F_VERSION_1)))
		return -ENODEV;
	/* no MULTIPORT, no SIZE, no EMERG_WRITE: one port, written through its queue */
	err = vp_finalize_features(vp, 1ULL << VIRTIO_F_VERSION_1);
	if (err)
		return err;
	if (hvc0) {
		pr_info("a second console: only the first is used\n");
		return -EBUSY;
	}
	vc = kzalloc(sizeof(*vc), GFP_KERNEL);
	if (!vc)
		return -ENOMEM;
	vc->vp = vp;
	mutex_init(&vc->lock);
	vc->buf = __get_free_pages(GFP_KERNEL, 0);
	pci_intx(vp->pci, false);
	vc->tx = vc->buf ? vp_setup_vq(vp, VIRTCON_TRANSMITQ, VIRTCON_RING) : NULL;
	if (!vc->tx)
		return -ENOMEM; /* vc stays: the device may still point at its memory */
	virtqueue_disable_cb(vc->tx);
	vp_add_status(vp, VIRTIO_CONFIG_S_DRIVER_OK);
	hvc0 = vc;
	strlcpy(vp->pci->driver_info, "hvc0", sizeof(vp->pci->driver_info));
	pr_info("hvc0: output only, ring %u\n", vc->tx->num);
	return 0;
}

static const struct virtio_driver virtio_console_driver = {
	.name = "virtio_console",
	.device_id = VIRTIO_ID_CONSOLE,
	.probe = virtio_console_probe,
};

void virtio_console_init(void)
{
	register_virtio_driver(&virtio_console_driver);
}
