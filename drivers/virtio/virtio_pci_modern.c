/*
 * Virtio 1.x over PCI (VIRTIO 1.1 specification, 4.1.4): each configuration structure is announced
 * by a vendor capability naming a BAR, an offset and a length. QEMU's transitional virtio-blk-pci
 * (device 0x1001) has them as well as the legacy IO BAR, and disable-legacy=on gives 0x1042 with
 * only them, so this one transport serves both.
 */
#define pr_fmt(fmt) "virtio-pci: " fmt

#include "virtio_pci.h"
#include <cgwb/io.h>
#include <cgwb/irq.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include <cgwb/sched.h>
#include <cgwb/bug.h>

/* capability layout (4.1.4) */
#define VP_CAP_CFG_TYPE 3
#define VP_CAP_BAR 4
#define VP_CAP_OFFSET 8
#define VP_CAP_LENGTH 12
#define VP_NOTIFY_CAP_MULT 16

#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4

/* common configuration (4.1.4.3) */
#define VP_DFSELECT 0x00
#define VP_DF 0x04
#define VP_GFSELECT 0x08
#define VP_GF 0x0c
#define VP_MSIX_CONFIG 0x10
#define VP_NUM_QUEUES 0x12
#define VP_STATUS 0x14
#define VP_CFG_GENERATION 0x15
#define VP_Q_SELECT 0x16
#define VP_Q_SIZE 0x18
#define VP_Q_MSIX_VECTOR 0x1a
#define VP_Q_ENABLE 0x1c
#define VP_Q_NOFF 0x1e
#define VP_Q_DESC 0x20
#define VP_Q_AVAIL 0x28
#define VP_Q_USED 0x30
#define VP_COMMON_LEN 0x38

#define VIRTIO_MSI_NO_VECTOR 0xffff
#define VIRTIO_PCI_ISR_QUEUE 0x1

static volatile u8 *map_cap(struct virtio_pci_device *vp, u8 cap, size_t min_len, size_t *len)
{
	struct pci_dev *pci = vp->pci;
	u8 bar = pci_read_config_byte(pci, cap + VP_CAP_BAR);
	u32 off = pci_read_config_dword(pci, cap + VP_CAP_OFFSET);
	u32 length = pci_read_config_dword(pci, cap + VP_CAP_LENGTH);

	if (length < min_len) {
		pr_err("capability at %#x too short (%u < %zu)\n", cap, length, min_len);
		return NULL;
	}
	if (len)
		*len = length;
	return pci_iomap_range(pci, bar, off, length);
}

/* The first capability of each type wins (4.1.4.1: the driver uses the first it knows). */
static void take_cap(struct virtio_pci_device *vp, u8 cap)
{
	u8 type = pci_read_config_byte(vp->pci, cap + VP_CAP_CFG_TYPE);

	if (type == VIRTIO_PCI_CAP_COMMON_CFG && !vp->common) {
		vp->common = map_cap(vp, cap, VP_COMMON_LEN, NULL);
	} else if (type == VIRTIO_PCI_CAP_NOTIFY_CFG && !vp->notify_base) {
		vp->notify_base = map_cap(vp, cap, 2, &vp->notify_len);
		vp->notify_off_multiplier = pci_read_config_dword(vp->pci, cap + VP_NOTIFY_CAP_MULT);
	} else if (type == VIRTIO_PCI_CAP_ISR_CFG && !vp->isr) {
		vp->isr = map_cap(vp, cap, 1, NULL);
	} else if (type == VIRTIO_PCI_CAP_DEVICE_CFG && !vp->device) {
		vp->device = map_cap(vp, cap, 0, &vp->device_len);
	}
}

int vp_modern_probe(struct virtio_pci_device *vp, struct pci_dev *pci)
{
	vp->pci = pci;
	pci_enable_device(pci);
	for (u8 cap = pci_find_capability(pci, PCI_CAP_ID_VNDR); cap;
	     cap = pci_find_next_capability(pci, cap, PCI_CAP_ID_VNDR))
		take_cap(vp, cap);
	if (!vp->common || !vp->notify_base || !vp->isr)
		return -ENODEV;
	return 0;
}

void vp_reset(struct virtio_pci_device *vp)
{
	writeb(0, vp->common + VP_STATUS);
	/* 4.1.4.3.2: reset is done when status reads back 0 */
	while (readb(vp->common + VP_STATUS))
		cpu_relax();
}

u8 vp_get_status(struct virtio_pci_device *vp)
{
	return readb(vp->common + VP_STATUS);
}

void vp_add_status(struct virtio_pci_device *vp, u8 status)
{
	writeb(vp_get_status(vp) | status, vp->common + VP_STATUS);
}

u64 vp_get_features(struct virtio_pci_device *vp)
{
	writel(0, vp->common + VP_DFSELECT);
	u64 lo = readl(vp->common + VP_DF);
	writel(1, vp->common + VP_DFSELECT);
	u64 hi = readl(vp->common + VP_DF);
	return lo | hi << 32;
}

int vp_finalize_features(struct virtio_pci_device *vp, u64 features)
{
	writel(0, vp->common + VP_GFSELECT);
	writel((u32)features, vp->common + VP_GF);
	writel(1, vp->common + VP_GFSELECT);
	writel((u32)(features >> 32), vp->common + VP_GF);
	vp_add_status(vp, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(vp_get_status(vp) & VIRTIO_CONFIG_S_FEATURES_OK))
		return -ENODEV;
	vp->features = features;
	return 0;
}

/* Retry while the device changed its configuration under us (4.1.4.3.1). */
#define VP_CONFIG_READ(vp, off, type, read)                                 \
	({                                                                  \
		type __v;                                                   \
		u8 __gen;                                                   \
		do {                                                        \
			__gen = readb((vp)->common + VP_CFG_GENERATION);    \
			__v = read((vp)->device + (off));                   \
		} while (__gen != readb((vp)->common + VP_CFG_GENERATION)); \
		__v;                                                        \
	})

u8 vp_config_read8(struct virtio_pci_device *vp, unsigned int off)
{
	BUG_ON(!vp->device || off + 1 > vp->device_len);
	return VP_CONFIG_READ(vp, off, u8, readb);
}

u16 vp_config_read16(struct virtio_pci_device *vp, unsigned int off)
{
	BUG_ON(!vp->device || off + 2 > vp->device_len);
	return VP_CONFIG_READ(vp, off, u16, readw);
}

u32 vp_config_read32(struct virtio_pci_device *vp, unsigned int off)
{
	BUG_ON(!vp->device || off + 4 > vp->device_len);
	return VP_CONFIG_READ(vp, off, u32, readl);
}

static u64 read_u64_halves(const volatile u8 *p)
{
	return readl(p) | (u64)readl(p + 4) << 32;
}

u64 vp_config_read64(struct virtio_pci_device *vp, unsigned int off)
{
	BUG_ON(!vp->device || off + 8 > vp->device_len);
	return VP_CONFIG_READ(vp, off, u64, read_u64_halves);
}

static void vp_msix_handler(void *data)
{
	struct virtio_pci_device *vp = data;

	vp->nr_irqs++;
	vp->vq_callback(vp->cb_data);
}

/*
 * INTx: reading ISR acknowledges and lowers the line. The line is routed edge-triggered
 * (request_gsi offers edge/high or level/low, and QEMU's PCI links are level/high): every
 * new used buffer after the read raises it again, which is a new edge.
 */
static void vp_intx_handler(void *data)
{
	struct virtio_pci_device *vp = data;

	if (readb(vp->isr) & VIRTIO_PCI_ISR_QUEUE) {
		vp->nr_irqs++;
		vp->vq_callback(vp->cb_data);
	}
}

int vp_request_irq(struct virtio_pci_device *vp, vp_callback_t cb, void *data)
{
	vp->vq_callback = cb;
	vp->cb_data = data;
	if (!pci_msix_enable(vp->pci)) {
		int vector = alloc_msi_vector(vp_msix_handler, vp);
		if (vector < 0)
			return vector;
		pci_msix_set_vector(vp->pci, 0, vector);
		writew(VIRTIO_MSI_NO_VECTOR, vp->common + VP_MSIX_CONFIG);
		vp->msix = true;
		vp->vector = vector;
		return 0;
	}
	if (!vp->pci->irq_pin || vp->pci->irq_line == 0xff)
		return -ENODEV;
	pci_intx(vp->pci, true);
	return request_gsi(vp->pci->irq_line, false, vp_intx_handler, vp);
}

static bool vp_notify(struct virtqueue *vq)
{
	volatile u8 *addr = vq->priv;

	writew((u16)vq->index, addr);
	return true;
}

static volatile u8 *vp_notify_addr(struct virtio_pci_device *vp)
{
	u64 off = (u64)readw(vp->common + VP_Q_NOFF) * vp->notify_off_multiplier;

	if (off + 2 > vp->notify_len)
		return NULL;
	return vp->notify_base + off;
}

struct virtqueue *vp_setup_vq(struct virtio_pci_device *vp, unsigned int index, unsigned int max_num)
{
	writew((u16)index, vp->common + VP_Q_SELECT);
	unsigned int size = readw(vp->common + VP_Q_SIZE);
	if (!size || readw(vp->common + VP_Q_ENABLE))
		return NULL;
	/* a power of two is required by our ring arithmetic; devices may offer any size */
	unsigned int num = (unsigned int)1 << ilog2(min(size, max_num));
	volatile u8 *notify = vp_notify_addr(vp);
	if (!notify)
		return NULL;
	struct virtqueue *vq =
		vring_create_virtqueue(index, num, vp->features, vp_notify, (void *)notify);
	if (!vq)
		return NULL;
	writew((u16)num, vp->common + VP_Q_SIZE);
	writeq(virtqueue_get_desc_addr(vq), vp->common + VP_Q_DESC);
	writeq(virtqueue_get_avail_addr(vq), vp->common + VP_Q_AVAIL);
	writeq(virtqueue_get_used_addr(vq), vp->common + VP_Q_USED);
	if (vp->msix) {
		writew(0, vp->common + VP_Q_MSIX_VECTOR);
		if (readw(vp->common + VP_Q_MSIX_VECTOR) == VIRTIO_MSI_NO_VECTOR) {
			pr_err("queue %u: device refused its MSI-X vector\n", index);
			vring_del_virtqueue(vq);
			return NULL;
		}
	}
	writew(1, vp->common + VP_Q_ENABLE);
	return vq;
}

static const struct pci_device_id virtio_pci_ids[] = {
	{ VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_BLK_TRANSITIONAL },
	{ VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_MODERN_BASE + VIRTIO_ID_BLOCK },
	{ VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_CONSOLE_TRANSITIONAL },
	{ VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_MODERN_BASE + VIRTIO_ID_CONSOLE },
	{ 0, 0 },
};

#define VIRTIO_DRIVERS_MAX 4

static const struct virtio_driver *virtio_drivers[VIRTIO_DRIVERS_MAX];
static unsigned int nr_virtio_drivers;

void register_virtio_driver(const struct virtio_driver *drv)
{
	BUG_ON(nr_virtio_drivers == VIRTIO_DRIVERS_MAX);
	virtio_drivers[nr_virtio_drivers++] = drv;
}

/* The virtio device id of a PCI function: modern ids are offsets, transitional ones fixed. */
static unsigned int virtio_pci_device_id(const struct pci_dev *pci)
{
	switch (pci->device) {
	case VIRTIO_PCI_DEVICE_BLK_TRANSITIONAL:
		return VIRTIO_ID_BLOCK;
	case VIRTIO_PCI_DEVICE_CONSOLE_TRANSITIONAL:
		return VIRTIO_ID_CONSOLE;
	default:
		return pci->device - VIRTIO_PCI_DEVICE_MODERN_BASE;
	}
}

static const struct virtio_driver *virtio_find_driver(unsigned int device_id)
{
	for (unsigned int i = 0; i < nr_virtio_drivers; i++)
		if (virtio_drivers[i]->device_id == device_id)
			return virtio_drivers[i];
	return NULL;
}

static int virtio_pci_probe(struct pci_dev *pci, const struct pci_device_id *id)
{
	const struct virtio_driver *drv = virtio_find_driver(virtio_pci_device_id(pci));
	struct virtio_pci_device *vp;
	int err;

	(void)id;
	if (!drv)
		return -ENODEV; /* no driver of this kind of device was built in */
	vp = kzalloc(sizeof(*vp), GFP_KERNEL);
	if (!vp)
		return -ENOMEM;
	err = vp_modern_probe(vp, pci);
	if (err) {
		pr_err("%02x:%02x.%u: no virtio 1.x interface (legacy-only devices are not "
		       "supported)\n",
		       pci->bus, pci->slot, pci->func);
		kfree(vp);
		return err;
	}
	pci->driver_data = vp;
	err = drv->probe(vp);
	if (err) {
		/* vp stays allocated: an interrupt handler may already point at it */
		vp_add_status(vp, VIRTIO_CONFIG_S_FAILED);
		pci->driver_data = NULL;
	}
	return err;
}

const struct pci_driver virtio_pci_driver = {
	.name = "virtio-pci",
	.id_table = virtio_pci_ids,
	.probe = virtio_pci_probe,
};
