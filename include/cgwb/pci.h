/*
 * PCI: configuration space through mechanism #1 (ports 0xcf8/0xcfc), the bus scan, BARs,
 * the capability list, MSI-X, and matching devices to drivers. Kernel only.
 */
#ifndef CGWB_PCI_H
#define CGWB_PCI_H

#include <cgwb/types.h>
#include <cgwb/list.h>

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_STATUS 0x06
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_HEADER_TYPE 0x0e
#define PCI_BASE_ADDRESS_0 0x10
#define PCI_SECONDARY_BUS 0x19
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d

#define PCI_COMMAND_IO 0x1
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS_CAP_LIST 0x10

#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_VNDR 0x09
#define PCI_CAP_ID_MSIX 0x11

#define PCI_NUM_BARS 6

struct pci_bar {
	u64 addr;
	u64 size; /* 0: the device has no such BAR */
	bool io;  /* port IO rather than memory */
	bool mem64, prefetch;
};

struct pci_driver;

struct pci_dev {
	u8 bus, slot, func;
	u16 vendor, device;
	u16 subsystem_vendor, subsystem_device;
	u8 class_code, subclass, prog_if, revision;
	u8 header_type;
	u8 irq_line, irq_pin; /* INTx: the GSI firmware routed it to, pin 1..4 (0: none) */
	struct pci_bar bar[PCI_NUM_BARS];
	const struct pci_driver *driver;
	void *driver_data;
	char driver_info[32]; /* what the driver made of it ("vda"), for lspci */
	/* MSI-X, once enabled */
	u8 msix_cap;
	u16 msix_nr;
	volatile u32 *msix_table;
	struct list_head node;
};

struct pci_device_id {
	u16 vendor, device; /* 0 terminates a table */
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
};

/**
 * pci_read_config_byte() - read a byte of a device's configuration space
 * @dev: the device
 * @off: the offset (0 to 255)
 *
 * Context: any context.
 * Return: the byte.
 */
u8 pci_read_config_byte(const struct pci_dev *dev, unsigned int off);
u16 pci_read_config_word(const struct pci_dev *dev, unsigned int off);
/**
 * pci_read_config_dword() - read a 32-bit word of a device's configuration space
 * @dev: the device
 * @off: the offset, 4-aligned
 *
 * Context: any context.
 * Return: the word.
 */
u32 pci_read_config_dword(const struct pci_dev *dev, unsigned int off);
void pci_write_config_byte(const struct pci_dev *dev, unsigned int off, u8 v);
void pci_write_config_word(const struct pci_dev *dev, unsigned int off, u16 v);
void pci_write_config_dword(const struct pci_dev *dev, unsigned int off, u32 v);

/**
 * pci_find_next_capability() - find a capability in a device's list
 * @dev: the device
 * @pos: the capability to start after, or 0 to start from the list's head
 * @cap: the capability id (PCI_CAP_ID_MSIX...)
 *
 * The walk is bounded: a broken list does not loop forever.
 *
 * Context: any context.
 * Return: the offset of the first such capability after @pos, or 0 if none.
 */
u8 pci_find_next_capability(const struct pci_dev *dev, u8 pos, u8 cap);
static inline u8 pci_find_capability(const struct pci_dev *dev, u8 cap)
{
	return pci_find_next_capability(dev, 0, cap);
}

/**
 * pci_enable_device() - turn on a device's memory and IO decoding and bus mastering (DMA)
 * @dev: the device
 *
 * Context: process context (probe).
 */
void pci_enable_device(struct pci_dev *dev);
/**
 * pci_iomap_range() - map part of a memory BAR
 * @dev: the device
 * @bar: the BAR's number
 * @offset: where the part starts in the BAR
 * @len: its length
 *
 * Context: process context (probe); may sleep (ioremap()).
 * Return: its virtual address; NULL if the BAR is missing, an IO BAR or too small, or the
 * mapping failed.
 */
void *pci_iomap_range(struct pci_dev *dev, unsigned int bar, u64 offset, u64 len);

/**
 * pci_msix_enable() - enable a device's MSI-X, every entry masked
 * @dev: the device
 *
 * Maps the MSI-X table and turns INTx off. Each entry is then pointed at a CPU vector by
 * pci_msix_set_vector().
 *
 * Context: process context (probe); may sleep.
 * Return: 0, or -ENODEV without MSI-X (or if its table cannot be mapped).
 */
int pci_msix_enable(struct pci_dev *dev);
/**
 * pci_msix_set_vector() - point an MSI-X entry at a vector of this CPU, and unmask it
 * @dev: the device, its MSI-X enabled
 * @entry: the entry
 * @vector: the vector, from alloc_msi_vector()
 *
 * The message goes to the local APIC of the CPU that calls (msi_address()).
 *
 * Context: process context (probe).
 * Return: 0, or -EINVAL for MSI-X not enabled, an entry the table lacks or a bad vector.
 */
int pci_msix_set_vector(struct pci_dev *dev, unsigned int entry, int vector);
/**
 * pci_intx() - turn a device's INTx interrupts on or off (the command register)
 * @dev: the device
 * @enable: on or off (off while MSI-X is in use)
 *
 * Context: process context.
 */
void pci_intx(struct pci_dev *dev, bool enable);

/**
 * pci_init() - scan every bus and probe the drivers
 *
 * Each device found is offered to the drivers in their order.
 *
 * Context: boot, once; sleeps (the drivers' probes).
 */
void pci_init(void);
/**
 * pci_for_each_dev() - call a function for each device found (lspci)
 * @fn: called with each device and @arg
 * @arg: passed to @fn
 *
 * The list does not change after pci_init().
 *
 * Context: any context, after pci_init().
 */
void pci_for_each_dev(void (*fn)(struct pci_dev *, void *), void *arg);
const char *pci_class_name(u8 class_code, u8 subclass);

/* The drivers the kernel has (probed in this order). */
extern const struct pci_driver virtio_pci_driver;

#endif
