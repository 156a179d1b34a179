/*
 * Base address registers: type and size are found by writing all ones and reading back
 * which bits stuck (PCI 3.0 section 6.2.5.1), with decoding off so that the device does not
 * answer at the probe address meanwhile.
 */
#include "pci_internal.h"
#include <cgwb/io.h>

#define BAR_IO 0x1
#define BAR_MEM_TYPE_64 0x4
#define BAR_MEM_PREFETCH 0x8

static u32 bar_probe(struct pci_dev *dev, unsigned int off, u32 *orig)
{
	*orig = pci_read_config_dword(dev, off);
	pci_write_config_dword(dev, off, 0xffffffffu);
	u32 mask = pci_read_config_dword(dev, off);
	pci_write_config_dword(dev, off, *orig);
	return mask;
}

/* Reads BAR i (and its upper half for 64-bit ones); returns how many slots it used. */
static unsigned int read_bar(struct pci_dev *dev, unsigned int i)
{
	unsigned int off = PCI_BASE_ADDRESS_0 + 4 * i;
	struct pci_bar *bar = &dev->bar[i];
	u32 lo, mask = bar_probe(dev, off, &lo);

	if (!mask || mask == 0xffffffffu)
		return 1;
	if (lo & BAR_IO) {
		bar->io = true;
		bar->addr = lo & ~3u;
		bar->size = (u16)(~(mask & ~3u) + 1);
		return 1;
	}
	u64 size_mask = mask & ~0xfu;
	bar->addr = lo & ~0xfu;
	bar->prefetch = lo & BAR_MEM_PREFETCH;
	if ((lo & 0x6) == BAR_MEM_TYPE_64 && i + 1 < PCI_NUM_BARS) {
		u32 hi, mask_hi = bar_probe(dev, off + 4, &hi);
		bar->mem64 = true;
		bar->addr |= (u64)hi << 32;
		size_mask |= (u64)mask_hi << 32;
		bar->size = ~size_mask + 1;
		return 2;
	}
	bar->size = (u32)(~(u32)size_mask + 1);
	return 1;
}

void pci_read_bars(struct pci_dev *dev)
{
	u16 cmd = pci_read_config_word(dev, PCI_COMMAND);
	unsigned int nr = (dev->header_type & 0x7f) == 0 ? PCI_NUM_BARS : 2;

	pci_write_config_word(dev, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (unsigned int i = 0; i < nr;)
		i += read_bar(dev, i);
	pci_write_config_word(dev, PCI_COMMAND, cmd);
}

void *pci_iomap_range(struct pci_dev *dev, unsigned int i, u64 offset, u64 len)
{
	if (i >= PCI_NUM_BARS)
		return NULL;
	struct pci_bar *bar = &dev->bar[i];
	if (!bar->size || bar->io || !bar->addr || offset > bar->size || len > bar->size - offset)
		return NULL;
	return ioremap(bar->addr + offset, (size_t)len);
}
