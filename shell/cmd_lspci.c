/* lspci: one line per function with its numbers, class and the driver that took it. */
#include <cgwb/pci.h>
#include <cgwb/shell.h>

static const struct {
	u8 class_code, subclass;
	const char *name;
} pci_classes[] = {
	{ 0x01, 0x00, "SCSI storage controller" },
	{ 0x01, 0x01, "IDE interface" },
	{ 0x01, 0x06, "SATA controller" },
	{ 0x01, 0x08, "Non-Volatile memory controller" },
	{ 0x01, 0x80, "Mass storage controller" },
	{ 0x02, 0x00, "Ethernet controller" },
	{ 0x03, 0x00, "VGA compatible controller" },
	{ 0x06, 0x00, "Host bridge" },
	{ 0x06, 0x01, "ISA bridge" },
	{ 0x06, 0x04, "PCI bridge" },
	{ 0x06, 0x80, "Bridge" },
	{ 0x0c, 0x03, "USB controller" },
	{ 0x0c, 0x05, "SMBus" },
	{ 0x00, 0xff, "Unclassified device" },
};

const char *pci_class_name(u8 class_code, u8 subclass)
{
	for (size_t i = 0; i < ARRAY_SIZE(pci_classes); i++)
		if (pci_classes[i].class_code == class_code && pci_classes[i].subclass == subclass)
			return pci_classes[i].name;
	return class_code == 0x01 ? "Mass storage controller" : "Device";
}

static void lspci_one(struct pci_dev *dev, void *arg)
{
	(void)arg;
	sh_out("%02x:%02x.%u %02x%02x: %04x:%04x %s", dev->bus, dev->slot, dev->func,
	       dev->class_code, dev->subclass, dev->vendor, dev->device,
	       pci_class_name(dev->class_code, dev->subclass));
	if (dev->driver)
		sh_out(" [%s%s%s]", dev->driver->name, dev->driver_info[0] ? " " : "",
		       dev->driver_info);
	sh_out("\n");
}

static int cmd_lspci(int argc, char **argv)
{
	if (argc > 1)
		return sh_usage(argv[0]);
	pci_for_each_dev(lspci_one, NULL);
	return 0;
}

DEFINE_SHELL_CMD(lspci, "lspci", "lspci", "list PCI devices: numbers, class, driver", cmd_lspci, 0);
