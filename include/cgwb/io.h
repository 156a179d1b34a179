/* Port and memory-mapped IO (kernel only: hardware is touched by kernel/arch and drivers). */
#ifndef CGWB_IO_H
#define CGWB_IO_H

#include <cgwb/types.h>

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}
static inline void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}
static inline void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}
static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u16 inw(u16 port)
{
	u16 v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u32 inl(u16 port)
{
	u32 v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void io_delay(void)
{
	outb(0x80, 0);
}
static inline u8 readb(const volatile void *a)
{
	return *(const volatile u8 *)a;
}
static inline u16 readw(const volatile void *a)
{
	return *(const volatile u16 *)a;
}
static inline u32 readl(const volatile void *a)
{
	return *(const volatile u32 *)a;
}
static inline u64 readq(const volatile void *a)
{
	return *(const volatile u64 *)a;
}
static inline void writeb(u8 v, volatile void *a)
{
	*(volatile u8 *)a = v;
}
static inline void writew(u16 v, volatile void *a)
{
	*(volatile u16 *)a = v;
}
static inline void writel(u32 v, volatile void *a)
{
	*(volatile u32 *)a = v;
}
static inline void writeq(u64 v, volatile void *a)
{
	*(volatile u64 *)a = v;
}

/**
 * ioremap() - map a physical MMIO range
 * @phys: its physical address
 * @size: its length
 *
 * A range inside the low direct map is reached through it; one above is mapped with huge
 * pages (uncached) first.
 *
 * Context: process context; may sleep.
 * Return: its virtual address, or NULL (a bad range, or no memory for the page tables).
 */
void *ioremap(phys_addr_t phys, size_t size);

#endif
