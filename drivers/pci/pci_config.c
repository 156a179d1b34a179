/*
 * Configuration space access through mechanism #1: an address written to 0xcf8 selects a
 * dword that 0xcfc then reads or writes. The two steps must not interleave with another
 * access, hence the lock with interrupts off.
 */
#include <cgwb/pci.h>
#include <cgwb/io.h>
#include <cgwb/spinlock.h>
#include "pci_internal.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc

static DEFINE_SPINLOCK(pci_config_lock);

static u32 config_address(u8 bus, u8 slot, u8 func, unsigned int off)
{
	return 0x80000000u | ((u32)bus << 16) | ((u32)slot << 11) | ((u32)func << 8) | (off & 0xfc);
}

u32 pci_conf1_read(u8 bus, u8 slot, u8 func, unsigned int off, unsigned int size)
{
	unsigned long flags;
	u32 v;

	spin_lock_irqsave(&pci_config_lock, flags);
	outl(PCI_CONFIG_ADDRESS, config_address(bus, slot, func, off));
	switch (size) {
	case 1:
		v = inb((u16)(PCI_CONFIG_DATA + (off & 3)));
		break;
	case 2:
		v = inw((u16)(PCI_CONFIG_DATA + (off & 2)));
		break;
	default:
		v = inl(PCI_CONFIG_DATA);
		break;
	}
	spin_unlock_irqrestore(&pci_config_lock, flags);
	return v;
}

void pci_conf1_write(u8 bus, u8 slot, u8 func, unsigned int off, unsigned int size, u32 v)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_config_lock, flags);
	outl(PCI_CONFIG_ADDRESS, config_address(bus, slot, func, off));
	switch (size) {
	case 1:
		outb((u16)(PCI_CONFIG_DATA + (off & 3)), (u8)v);
		break;
	case 2:
		outw((u16)(PCI_CONFIG_DATA + (off & 2)), (u16)v);
		break;
	default:
		outl(PCI_CONFIG_DATA, v);
		break;
	}
	spin_unlock_irqrestore(&pci_config_lock, flags);
}

u8 pci_read_config_byte(const struct pci_dev *d, unsigned int off)
{
	return (u8)pci_conf1_read(d->bus, d->slot, d->func, off, 1);
}

u16 pci_read_config_word(const struct pci_dev *d, unsigned int off)
{
	return (u16)pci_conf1_read(d->bus, d->slot, d->func, off, 2);
}

u32 pci_read_config_dword(const struct pci_dev *d, unsigned int off)
{
	return pci_conf1_read(d->bus, d->slot, d->func, off, 4);
}

void pci_write_config_byte(const struct pci_dev *d, unsigned int off, u8 v)
{
	pci_conf1_write(d->bus, d->slot, d->func, off, 1, v);
}

void pci_write_config_word(const struct pci_dev *d, unsigned int off, u16 v)
{
	pci_conf1_write(d->bus, d->slot, d->func, off, 2, v);
}

void pci_write_config_dword(const struct pci_dev *d, unsigned int off, u32 v)
{
	pci_conf1_write(d->bus, d->slot, d->func, off, 4, v);
}

u8 pci_find_next_capability(const struct pci_dev *dev, u8 pos, u8 cap)
{
	/* bounded: a broken list must not loop forever */
	unsigned int ttl = 48;

	if (!pos) {
		if (!(pci_read_config_word(dev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
			return 0;
		pos = pci_read_config_byte(dev, PCI_CAPABILITY_LIST);
	} else {
		pos = pci_read_config_byte(dev, pos + 1u);
	}
	while (pos >= 0x40 && ttl--) {
		pos &= 0xfc;
		if (pci_read_config_byte(dev, pos) == cap)
			return pos;
		pos = pci_read_config_byte(dev, pos + 1u);
	}
	return 0;
}
