/*
 * COM1 16550 UART: polled output, interrupt-driven input handed to the console line
 * discipline. Also the QEMU debugcon port (0xe9), which receives the whole kernel log.
 */
#include <cgwb/types.h>
#include <cgwb/io.h>
#include <cgwb/printk.h>
#include <cgwb/spinlock.h>
#include "x86.h"
#include <cgwb/console.h>

#define COM1 0x3f8
#define UART_RBR 0
#define UART_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define DEBUGCON 0xe9

static bool serial_present;

void serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80); /* DLAB */
	outb(COM1 + 0, 0x01);        /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + UART_LCR, 0x03); /* 8N1 */
	/*
	 * FIFO left off: QEMU empties the FIFOs when it is switched on, which would lose what
	 * was typed (or piped) before now; without it QEMU simply holds input back until read.
	 */
	outb(COM1 + UART_FCR, 0x00);
	outb(COM1 + UART_MCR, 0x0b); /* DTR, RTS, OUT2 (interrupts to the PIC/IOAPIC line) */
	serial_present = inb(COM1 + UART_LSR) != 0xff;
}

void serial_putc(char c)
{
	if (!serial_present)
		return;
	for (int spins = 0; spins < 100000 && !(inb(COM1 + UART_LSR) & LSR_THRE); spins++)
		cpu_relax();
	outb(COM1 + UART_THR, (u8)c);
}

void debugcon_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		outb(DEBUGCON, (u8)s[i]);
}

static bool rx_paused;
static DEFINE_SPINLOCK(rx_lock); /* the receiver: its interrupt on one CPU, a reader on another */

/*
 * Receive while the console has room. When it is full, stop taking bytes (receive interrupt
 * off): QEMU then holds further input back instead of it being lost.
 */
static void serial_receive(void)
{
	while (inb(COM1 + UART_LSR) & LSR_DR) {
		if (console_input_full()) {
			rx_paused = true;
			outb(COM1 + UART_IER, 0x00);
			return;
		}
		console_receive_char((char)inb(COM1 + UART_RBR));
	}
}

static void serial_interrupt(void *data)
{
	unsigned long flags;

	(void)data;
	spin_lock_irqsave(&rx_lock, flags);
	serial_receive();
	spin_unlock_irqrestore(&rx_lock, flags);
}

/* The console made room again. */
void serial_rx_resume(void)
{
	unsigned long flags;

	if (!READ_ONCE(rx_paused))
		return;
	spin_lock_irqsave(&rx_lock, flags);
	if (rx_paused) {
		rx_paused = false;
		outb(COM1 + UART_IER, 0x01);
		serial_receive();
	}
	spin_unlock_irqrestore(&rx_lock, flags);
}

void serial_enable_irq(void)
{
	if (!serial_present)
		return;
	if (request_isa_irq(4, serial_interrupt, NULL)) {
		pr_err("serial: cannot route IRQ 4: no console input\n");
		return;
	}
	outb(COM1 + UART_IER, 0x01); /* received data available */
	/* drain anything typed before now, under the lock, or a byte could be read twice */
	serial_interrupt(NULL);
}
