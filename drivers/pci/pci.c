/*
 * The PCI device list: a depth-first scan from bus 0 through PCI-to-PCI bridges, then each
 * device offered to the drivers in order.
 */
#define pr_fmt(fmt) "pci: " fmt

#include "pci_internal.h"
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define PCI_CLASS_BRIDGE 0x06
#define PCI_SUBCLASS_BRIDGE_PCI 0x04

static LIST_HEAD(pci_devices);

static const struct pci_driver *const pci_drivers[] = {
	&virtio_pci_driver,
};

static void scan_bus(u8 bus, unsigned int depth);

static struct pci_dev *pci_dev_create(u8 bus, u8 slot, u8 func)
{
	struct pci_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return NULL;
	dev->bus = bus;
	dev->slot = slot;
	dev->func = func;
	dev->vendor = pci_read_config_word(dev, PCI_VENDOR_ID);
	dev->device = pci_read_config_word(dev, PCI_DEVICE_ID);
	u32 class = pci_read_config_dword(dev, PCI_REVISION_ID);
	dev->revision = (u8) class;
	dev->prog_if = (u8)(class >> 8);
	dev->subclass = (u8)(class >> 16);
	dev->class_code = (u8)(class >> 24);
	dev->header_type = pci_read_config_byte(dev, PCI_HEADER_TYPE);
	if ((dev->header_type & 0x7f) == 0) {
		dev->subsystem_vendor = pci_read_config_word(dev, PCI_SUBSYSTEM_VENDOR_ID);
		dev->subsystem_device = pci_read_config_word(dev, PCI_SUBSYSTEM_ID);
	}
	dev->irq_line = pci_read_config_byte(dev, PCI_INTERRUPT_LINE);
	dev->irq_pin = pci_read_config_byte(dev, PCI_INTERRUPT_PIN);
	pci_read_bars(dev);
	list_add_tail(&dev->node, &pci_devices);
	return dev;
}

static void scan_function(u8 bus, u8 slot, u8 func, unsigned int depth)
{
	struct pci_dev *dev = pci_dev_create(bus, slot, func);

	if (!dev) {
		pr_err("out of memory at %02x:%02x.%u\n", bus, slot, func);
		return;
	}
	if (dev->class_code == PCI_CLASS_BRIDGE && dev->subclass == PCI_SUBCLASS_BRIDGE_PCI) {
		u8 secondary = pci_read_config_byte(dev, PCI_SECONDARY_BUS);
		if (secondary > bus) /* a bridge pointing back would loop */
			scan_bus(secondary, depth + 1);
	}
}

static void scan_slot(u8 bus, u8 slot, unsigned int depth)
{
	if ((u16)pci_conf1_read(bus, slot, 0, PCI_VENDOR_ID, 2) == 0xffff)
		return;
	u8 header = (u8)pci_conf1_read(bus, slot, 0, PCI_HEADER_TYPE, 1);
	unsigned int nr_funcs = (header & 0x80) ? 8 : 1;
	for (u8 func = 0; func < nr_funcs; func++)
		if ((u16)pci_conf1_read(bus, slot, func, PCI_VENDOR_ID, 2) != 0xffff)
			scan_function(bus, slot, func, depth);
}

static void scan_bus(u8 bus, unsigned int depth)
{
	if (depth > 8)
		return;
	for (u8 slot = 0; slot < 32; slot++)
		scan_slot(bus, slot, depth);
}

void pci_enable_device(struct pci_dev *dev)
{
	u16 cmd = pci_read_config_word(dev, PCI_COMMAND);

	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_IO | PCI_COMMAND_MASTER;
	pci_write_config_word(dev, PCI_COMMAND, cmd);
}

void pci_intx(struct pci_dev *dev, bool enable)
{
	u16 cmd = pci_read_config_word(dev, PCI_COMMAND);

	if (enable)
		cmd &= ~PCI_COMMAND_INTX_DISABLE;
	else
		cmd |= PCI_COMMAND_INTX_DISABLE;
	pci_write_config_word(dev, PCI_COMMAND, cmd);
}

static void probe_device(struct pci_dev *dev)
{
	for (size_t i = 0; i < ARRAY_SIZE(pci_drivers); i++) {
		const struct pci_driver *drv = pci_drivers[i];
		for (const struct pci_device_id *id = drv->id_table; id->vendor; id++) {
			if (id->vendor != dev->vendor || id->device != dev->device)
				continue;
			dev->driver = drv;
			int err = drv->probe(dev, id);
			if (!err)
				return;
			dev->driver = NULL;
			pr_err("%02x:%02x.%u: %s probe failed: %s\n", dev->bus, dev->slot,
			       dev->func, drv->name, errstr(err));
		}
	}
}

void pci_init(void)
{
	struct pci_dev *dev;
	unsigned int n = 0;

	scan_bus(0, 0);
	list_for_each_entry(dev, &pci_devices, node) {
		n++;
		probe_device(dev);
	}
	pr_info("%u devices\n", n);
}

void pci_for_each_dev(void (*fn)(struct pci_dev *, void *), void *arg)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &pci_devices, node)
		fn(dev, arg);
}
