/*
 * MSI-X (PCI 3.0 section 6.8.2): a table in a memory BAR, one entry per interrupt source,
 * each holding the message (address and data) the device writes to interrupt. The entry's
 * data is the CPU vector; the address names the local APIC.
 */
#include <cgwb/pci.h>
#include <cgwb/io.h>
#include <cgwb/irq.h>
#include <cgwb/errno.h>

#define MSIX_FLAGS 2
#define MSIX_TABLE 4
#define MSIX_FLAGS_QSIZE 0x7ff
#define MSIX_FLAGS_MASKALL 0x4000
#define MSIX_FLAGS_ENABLE 0x8000
#define MSIX_ENTRY_SIZE 16
#define MSIX_ENTRY_CTRL_MASKBIT 1

int pci_msix_enable(struct pci_dev *dev)
{
	u8 cap = pci_find_capability(dev, PCI_CAP_ID_MSIX);

	if (!cap)
		return -ENODEV;
	u16 ctrl = pci_read_config_word(dev, cap + MSIX_FLAGS);
	u32 table = pci_read_config_dword(dev, cap + MSIX_TABLE);
	u16 nr = (ctrl & MSIX_FLAGS_QSIZE) + 1;
	volatile u32 *t = pci_iomap_range(dev, table & 7, table & ~7u, (u64)nr * MSIX_ENTRY_SIZE);
	if (!t)
		return -ENODEV;
	dev->msix_cap = cap;
	dev->msix_nr = nr;
	dev->msix_table = t;
	/* mask all while the entries are written, so none fires half-programmed */
	pci_write_config_word(dev, cap + MSIX_FLAGS, ctrl | MSIX_FLAGS_ENABLE | MSIX_FLAGS_MASKALL);
	for (unsigned int i = 0; i < nr; i++)
		writel(MSIX_ENTRY_CTRL_MASKBIT, (volatile u8 *)t + i * MSIX_ENTRY_SIZE + 12);
	pci_intx(dev, false);
	pci_write_config_word(dev, cap + MSIX_FLAGS,
			      (ctrl | MSIX_FLAGS_ENABLE) & ~MSIX_FLAGS_MASKALL);
	return 0;
}

int pci_msix_set_vector(struct pci_dev *dev, unsigned int entry, int vector)
{
	if (!dev->msix_table || entry >= dev->msix_nr || vector < 32 || vector > 255)
		return -EINVAL;
	volatile u8 *e = (volatile u8 *)dev->msix_table + entry * MSIX_ENTRY_SIZE;
	writel(msi_address(), e);
	writel(0, e + 4);
	writel((u32)vector, e + 8); /* fixed delivery, edge */
	writel(0, e + 12);          /* unmask */
	return 0;
}
