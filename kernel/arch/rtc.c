/* Wall-clock time from the CMOS RTC, read once at boot. */
#include <cgwb/types.h>
#include <cgwb/printk.h>
#include <cgwb/io.h>
#include "x86.h"

static u8 cmos_read(u8 reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static unsigned int bcd(u8 v, bool is_bcd)
{
	return is_bcd ? (v & 0x0f) + (v >> 4) * 10 : v;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static u64 days_from_civil(unsigned int y, unsigned int m, unsigned int d)
{
	y -= m <= 2;
	u64 era = y / 400;
	unsigned int yoe = y - era * 400;
	unsigned int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void rtc_init(void)
{
	u8 sec, min, hour, day, mon, year, regb;

	for (int tries = 0; tries < 1000000 && (cmos_read(0x0a) & 0x80); tries++)
		;
	sec = cmos_read(0x00);
	min = cmos_read(0x02);
	hour = cmos_read(0x04);
	day = cmos_read(0x07);
	mon = cmos_read(0x08);
	year = cmos_read(0x09);
	regb = cmos_read(0x0b);

	bool is_bcd = !(regb & 0x04);
	bool pm = hour & 0x80;
	unsigned int h = bcd(hour & 0x7f, is_bcd);
	if (!(regb & 0x02)) /* 12-hour mode */
		h = (h % 12) + (pm ? 12 : 0);
	unsigned int y = 2000 + bcd(year, is_bcd);
	u64 days = days_from_civil(y, bcd(mon, is_bcd), bcd(day, is_bcd));
	u64 epoch = days * 86400 + h * 3600 + bcd(min, is_bcd) * 60 + bcd(sec, is_bcd);

	rtc_set_boot_epoch(epoch);
	pr_info("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC\n", y, bcd(mon, is_bcd), bcd(day, is_bcd),
		h, bcd(min, is_bcd), bcd(sec, is_bcd));
}
