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
/*
 * The TSC is timed against PIT channel 2 counting down: the counter is read at the start
 * and end of a CALIBRATE_MS window, each read bracketed by two TSC reads, and the window
 * runs from the middle of one bracket to the middle of the other. Under TCG a port access
 * exits to QEMU and can stall there (a busy host, QEMU's IO thread holding its lock): timing
 * the gate's edge instead once read 102 GHz for this host's 2.6 GHz TSC (a stall in one
 * window), and 3.7-4.1 GHz in ordinary boots (the exits' own time). So CALIBRATE_TRIES
 * windows are taken and the one whose two brackets are narrowest is kept, as Linux's
 * quick_pit_calibrate() bounds its error by the time its reads took.
 */
#define CALIBRATE_MS 2
#define CALIBRATE_TRIES 3
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

/* Channel 2's count now, between *before and *after on the TSC. */
static u16 pit_ch2_read(u64 *before, u64 *after)
{
	u8 lo, hi;

	*before = rdtsc();
	outb(PIT_CMD, 0x80); /* latch channel 2 */
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	*after = rdtsc();
	return (u16)(lo | hi << 8);
}

/* One window: the TSC's rate in Hz, and in *width the TSC ticks its two reads took. */
static u64 calibrate_tsc_window(u64 *width)
{
	const u16 span = (u16)(PIT_HZ * CALIBRATE_MS / 1000);
	u64 a0, b0, a1, b1;
	u16 c0, c1;

	outb(PIT_CMD, 0xb0); /* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, 0xff);
	outb(PIT_CH2, 0xff);
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01); /* gate high: counting down from 0xffff */
	c0 = pit_ch2_read(&a0, &b0);
	do
		c1 = pit_ch2_read(&a1, &b1);
	while ((u16)(c0 - c1) < span);
	*width = (b0 - a0) + (b1 - a1);
	return ((a1 + b1) / 2 - (a0 + b0) / 2) * PIT_HZ / (u16)(c0 - c1);
}

static u64 calibrate_tsc(void)
{
	u8 b = inb(PORT_B);
	u64 best = 0, best_width = U64_MAX;

	for (int i = 0; i < CALIBRATE_TRIES; i++) {
		u64 width, hz;

		outb(PORT_B, (b & ~0x02) & ~0x01); /* speaker off, gate low */
		hz = calibrate_tsc_window(&width);
		if (width < best_width) {
			best = hz;
			best_width = width;
		}
	}
	outb(PORT_B, b);
	return best;
}

static void pit_tick(void *data)
{
	(void)data;
	jiffies = ktime_get_ns() / (NSEC_PER_SEC / HZ);
	run_timers(jiffies);
	tcg_tlb_tick(jiffies);
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

	tcg_tlb_init();

	outb(PIT_CMD, 0x34); /* channel 0, lobyte/hibyte, rate generator */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
	if (request_isa_irq(0, pit_tick, NULL))
		pr_err("clock: cannot route the PIT interrupt\n");
}
