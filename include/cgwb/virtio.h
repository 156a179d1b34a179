/* Virtio 1.x constants shared by transports and drivers (VIRTIO 1.1 specification 2, 4.1, 5.2). */
#ifndef CGWB_VIRTIO_H
#define CGWB_VIRTIO_H

#include <cgwb/types.h>

/* Device status (2.1) */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE 1
#define VIRTIO_CONFIG_S_DRIVER 2
#define VIRTIO_CONFIG_S_DRIVER_OK 4
#define VIRTIO_CONFIG_S_FEATURES_OK 8
#define VIRTIO_CONFIG_S_NEEDS_RESET 0x40
#define VIRTIO_CONFIG_S_FAILED 0x80

#define VIRTIO_F_VERSION_1 32

#define VIRTIO_PCI_VENDOR 0x1af4
#define VIRTIO_PCI_DEVICE_BLK_TRANSITIONAL 0x1001
#define VIRTIO_PCI_DEVICE_CONSOLE_TRANSITIONAL 0x1003
#define VIRTIO_PCI_DEVICE_MODERN_BASE 0x1040 /* + virtio device id */
#define VIRTIO_ID_BLOCK 2
#define VIRTIO_ID_CONSOLE 3

/* virtio-blk features (5.2.3) */
#define VIRTIO_BLK_F_SIZE_MAX 1
#define VIRTIO_BLK_F_SEG_MAX 2
#define VIRTIO_BLK_F_GEOMETRY 4
#define VIRTIO_BLK_F_RO 5
#define VIRTIO_BLK_F_BLK_SIZE 6
#define VIRTIO_BLK_F_FLUSH 9
#define VIRTIO_BLK_F_TOPOLOGY 10
#define VIRTIO_BLK_F_CONFIG_WCE 11
#define VIRTIO_BLK_F_MQ 12

/* virtio-blk configuration layout (5.2.4): byte offsets */
#define VIRTIO_BLK_CFG_CAPACITY 0        /* u64, 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX 8        /* u32 */
#define VIRTIO_BLK_CFG_SEG_MAX 12        /* u32 */
#define VIRTIO_BLK_CFG_BLK_SIZE 20       /* u32 */
#define VIRTIO_BLK_CFG_PHYS_BLOCK_EXP 24 /* u8: physical block = blk_size << exp */
#define VIRTIO_BLK_CFG_ALIGN_OFFSET 25   /* u8 */
#define VIRTIO_BLK_CFG_MIN_IO_SIZE 26    /* u16, in blocks */
#define VIRTIO_BLK_CFG_OPT_IO_SIZE 28    /* u32, in blocks */

/* virtio-blk requests (5.2.6) */
#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2

/* The device drivers register with the virtio PCI transport (before pci_init()). */
/**
 * virtio_blk_init() - register the virtio-blk driver with the virtio PCI transport
 *
 * Context: boot, before pci_init() probes the devices.
 */
void virtio_blk_init(void);
/**
 * virtio_console_init() - register the virtio console driver with the virtio PCI transport
 *
 * Context: boot, before pci_init() probes the devices.
 */
void virtio_console_init(void);

struct virtio_blk_outhdr {
	u32 type;
	u32 ioprio;
	u64 sector;
};

#endif
