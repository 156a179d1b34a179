/*
 * CRC-16 a bit at a time: it checks only the group descriptors of gdt_csum images, once
 * each at mount, where a table would cost more to build than it saves.
 */
#include <cgwb/crc16.h>

#define CRC16_POLY 0xA001u /* 0x8005 reflected */

u16 crc16(u16 crc, const void *data, size_t len)
{
	const u8 *p = data;

	while (len--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (u16)((crc >> 1) ^ (crc & 1 ? CRC16_POLY : 0));
	}
	return crc;
}
