/*
 * Time keeping: the TSC, calibrated against PIT channel 2, is the monotonic nanosecond
 * clock; PIT channel 0 interrupts at HZ and each tick derives jiffies from that clock (so a
 * late or coalesced tick under emulation never makes jiffies drift) and runs the timers.
 */
#include <cgwb/types.h>
#include <cgwb/printk.h>
#include <cgwb/jiffies.h>
#include <cgwb/timer.h>
#include <cgwb/io.h>
#include "x86.h"
#include "../sched-internal.h"

#define PIT_HZ 1193182ULL
#define PIT_CH0 0x40
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PORT_B 0x61
#define CALIBRATE_MS 5

volatile unsigned long jiffies;
static u64 tsc_at_boot;
static u64 tsc_mult; /* ns = (tsc * tsc_mult) >> 32 */
static u64 tsc_khz;
static u64 boot_epoch_seconds;

static u64 tsc_to_ns(u64 delta)
{
	return (u64)(((unsigned __int128)delta * tsc_mult) >> 32);
}

u64 ktime_get_ns(void)
{
	if (!tsc_mult)
		return 0;
	return tsc_to_ns(rdtsc() - tsc_at_boot);
}

u64 ktime_get_real_seconds(void)
{
	return boot_epoch_seconds + ktime_get_ns() / NSEC_PER_SEC;
}

u64 ktime_get_real_ns(void)
{
	return boot_epoch_seconds * NSEC_PER_SEC + ktime_get_ns();
}

void rtc_set_boot_epoch(u64 seconds)
{
	boot_epoch_seconds = seconds - ktime_get_ns() / NSEC_PER_SEC;
}

u64 tsc_frequency_khz(void)
{
	return tsc_khz;
}

static u64 calibrate_tsc(void)
{
	u16 count = (u16)(PIT_HZ * CALIBRATE_MS / 1000);
	u8 b = inb(PORT_B);

	outb(PORT_B, (b & ~0x02) & ~0x01); /* speaker off, gate low */
	outb(PIT_CMD, 0xb0);               /* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	u64 t0 = rdtsc();
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01); /* gate high: start counting */
	while (!(inb(PORT_B) & 0x20))
		;
	u64 t1 = rdtsc();
	outb(PORT_B, b);
	return (t1 - t0) * 1000 / CALIBRATE_MS;
}

static void pit_tick(void *data)
{
	(void)data;
	jiffies = ktime_get_ns() / (NSEC_PER_SEC / HZ);
	run_timers(jiffies);
	sched_tick();
}

void clock_init(void)
{
	u64 hz = calibrate_tsc();

	if (hz < 1000000)
		hz = 1000000; /* nonsense reading: assume 1 MHz rather than divide by ~0 */
	tsc_khz = hz / 1000;
	tsc_mult = (u64)(((unsigned __int128)NSEC_PER_SEC << 32) / hz);
	tsc_at_boot = rdtsc();
	jiffies = 0;
	pr_info("clock: TSC %llu.%03llu MHz\n", tsc_khz / 1000, tsc_khz % 1000);
}

void timer_tick_init(void)
{
	u16 divisor = (u16)((PIT_HZ + HZ / 2) / HZ);

	outb(PIT_CMD, 0x34); /* channel 0, lobyte/hibyte, rate generator */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
	if (request_isa_irq(0, pit_tick, NULL))
		pr_err("clock: cannot route the PIT interrupt\n");
}
