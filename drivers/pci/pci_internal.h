/* drivers/pci internals. */
#ifndef CGWB_DRIVERS_PCI_INTERNAL_H
#define CGWB_DRIVERS_PCI_INTERNAL_H

#include <cgwb/pci.h>

u32 pci_conf1_read(u8 bus, u8 slot, u8 func, unsigned int off, unsigned int size);
void pci_conf1_write(u8 bus, u8 slot, u8 func, unsigned int off, unsigned int size, u32 v);
void pci_read_bars(struct pci_dev *dev);

#endif
