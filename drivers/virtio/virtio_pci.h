/*
 * The virtio 1.x PCI transport (VIRTIO 1.1 specification, 4.1): the common, notify, ISR and
 * device-specific configuration structures found through vendor capabilities, the status handshake,
 * feature negotiation, queue setup and interrupts (MSI-X, else INTx).
 */
#ifndef CGWB_DRIVERS_VIRTIO_PCI_H
#define CGWB_DRIVERS_VIRTIO_PCI_H

#include <cgwb/pci.h>
#include <cgwb/virtio.h>
#include <cgwb/virtio_ring.h>

typedef void (*vp_callback_t)(void *data);

struct virtio_pci_device {
	struct pci_dev *pci;
	volatile u8 *common;
	volatile u8 *isr;
	volatile u8 *device;
	size_t device_len;
	volatile u8 *notify_base;
	u32 notify_off_multiplier;
	size_t notify_len;
	u64 features; /* negotiated */
	bool msix;
	int vector;                /* the queue's CPU vector (MSI-X) */
	vp_callback_t vq_callback; /* a queue has used buffers (interrupt context) */
	void *cb_data;
	unsigned long nr_irqs;
};

/* Find and map the capabilities: -ENODEV if the device has no modern interface. */
int vp_modern_probe(struct virtio_pci_device *vp, struct pci_dev *pci);

void vp_reset(struct virtio_pci_device *vp);
u8 vp_get_status(struct virtio_pci_device *vp);
void vp_add_status(struct virtio_pci_device *vp, u8 status);
u64 vp_get_features(struct virtio_pci_device *vp);
/* Write the driver's features and confirm FEATURES_OK: 0 or -ENODEV if refused. */
int vp_finalize_features(struct virtio_pci_device *vp, u64 features);

/* Device configuration, read consistently (config_generation) for wide fields. */
u8 vp_config_read8(struct virtio_pci_device *vp, unsigned int off);
u16 vp_config_read16(struct virtio_pci_device *vp, unsigned int off);
u32 vp_config_read32(struct virtio_pci_device *vp, unsigned int off);
u64 vp_config_read64(struct virtio_pci_device *vp, unsigned int off);

/*
 * Set up an interrupt calling cb(data) for queue activity: MSI-X if the device has it,
 * otherwise its INTx line. Before vp_setup_vq.
 */
int vp_request_irq(struct virtio_pci_device *vp, vp_callback_t cb, void *data);

/* Create queue index with up to max_num entries, tell the device, enable it. */
struct virtqueue *vp_setup_vq(struct virtio_pci_device *vp, unsigned int index, unsigned int max_num);

/*
 * A driver of one kind of virtio device (Linux's struct virtio_driver): the transport finds
 * the driver registered for a device's virtio id and hands it the device, set up up to
 * the device-specific part.
 */
struct virtio_driver {
	const char *name;
	unsigned int device_id; /* VIRTIO_ID_* */
	int (*probe)(struct virtio_pci_device *vp);
};
/* Before pci_init() finds the devices (the drivers' init functions, <cgwb/virtio.h>). */
void register_virtio_driver(const struct virtio_driver *drv);

#endif
