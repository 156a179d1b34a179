/* CRC-16 (the ARC/IBM polynomial), the checksum of ext4's gdt_csum group descriptors. */
#ifndef CGWB_CRC16_H
#define CGWB_CRC16_H

#include <cgwb/types.h>

/* Linux's crc16(): crc carried over len bytes, reflected polynomial 0xA001, no inversions. */
u16 crc16(u16 crc, const void *data, size_t len);

#endif
