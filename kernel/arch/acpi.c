/*
 * Minimal ACPI: find the RSDT/XSDT from the RSDP GRUB hands us, read the MADT for interrupt
 * routing and the FADT plus the DSDT's \_S5 package for soft power-off.
 */
#include <cgwb/types.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/io.h>
#include <cgwb/mm.h>
#include "x86.h"
#include "acpi.h"

struct acpi_sdt_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __attribute__((packed));

struct acpi_rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt_address;
	u32 length;
	u64 xsdt_address;
	u8 ext_checksum;
	u8 reserved[3];
} __attribute__((packed));

static struct acpi_madt_info madt_info;
static u64 rsdt_phys;
static bool use_xsdt;
static u32 pm1a_cnt, pm1b_cnt;
static u16 slp_typa, slp_typb;
static bool s5_known;

const struct acpi_madt_info *acpi_madt(void)
{
	return &madt_info;
}

static bool checksum_ok(const void *p, size_t n)
{
	u8 sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += ((const u8 *)p)[i];
	return sum == 0;
}

u64 acpi_find_table_phys(const char sig[4])
{
	if (!rsdt_phys)
		return 0;
	const struct acpi_sdt_header *root = phys_to_virt(rsdt_phys);
	size_t entry_size = use_xsdt ? 8 : 4;
	size_t n = (root->length - sizeof(*root)) / entry_size;
	const u8 *entries = (const u8 *)(root + 1);

	for (size_t i = 0; i < n; i++) {
		u64 phys = 0;
		memcpy(&phys, entries + i * entry_size, entry_size);
		const struct acpi_sdt_header *h = phys_to_virt(phys);
		if (phys && !memcmp(h->signature, sig, 4) && checksum_ok(h, h->length))
			return phys;
	}
	return 0;
}

static void parse_madt(void)
{
	u64 phys = acpi_find_table_phys("APIC");
	if (!phys) {
		pr_warn("acpi: no MADT, using default APIC addresses\n");
		return;
	}
	const u8 *t = phys_to_virt(phys);
	const struct acpi_sdt_header *h = (const void *)t;
	u32 lapic;
	memcpy(&lapic, t + 36, 4);
	madt_info.lapic_addr = lapic;

	for (u32 off = 44; off + 2 <= h->length;) {
		u8 type = t[off], len = t[off + 1];
		if (len < 2)
			break;
		if (type == 0 && len >= 8) { /* processor local APIC */
			u32 flags;
			memcpy(&flags, t + off + 4, 4);
			/* enabled, or online capable: both can be started */
			if ((flags & 3) && madt_info.nr_cpus < NR_CPUS)
				madt_info.lapic_ids[madt_info.nr_cpus++] = t[off + 3];
			else if (!(flags & 3))
				madt_info.nr_absent_cpus++;
		} else if (type == 1 && !madt_info.ioapic_addr) { /* IOAPIC */
			u32 addr, base;
			memcpy(&addr, t + off + 4, 4);
			memcpy(&base, t + off + 8, 4);
			madt_info.ioapic_addr = addr;
			madt_info.ioapic_gsi_base = base;
		} else if (type == 2 && madt_info.nr_overrides < ARRAY_SIZE(madt_info.overrides)) {
			struct acpi_irq_override *o = &madt_info.overrides[madt_info.nr_overrides++];
			o->source_irq = t[off + 3];
			memcpy(&o->gsi, t + off + 4, 4);
			memcpy(&o->flags, t + off + 8, 2);
		} else if (type == 5) { /* 64-bit LAPIC address override */
			memcpy(&madt_info.lapic_addr, t + off + 4, 8);
		}
		off += len;
	}
}

/* Decode an AML integer at p (ZeroOp, OneOp, BytePrefix, WordPrefix); returns bytes used. */
static int aml_int(const u8 *p, u16 *val)
{
	switch (p[0]) {
	case 0x00:
		*val = 0;
		return 1;
	case 0x01:
		*val = 1;
		return 1;
	case 0x0a:
		*val = p[1];
		return 2;
	case 0x0b:
		*val = (u16)(p[1] | (p[2] << 8));
		return 3;
	default:
		return 0;
	}
}

static void parse_s5(u64 dsdt_phys)
{
	const struct acpi_sdt_header *dsdt = phys_to_virt(dsdt_phys);
	const u8 *p = (const u8 *)dsdt;
	u32 len = dsdt->length;

	for (u32 i = sizeof(*dsdt); i + 8 < len; i++) {
		if (memcmp(p + i, "_S5_", 4) || p[i + 4] != 0x12) /* NameOp _S5_ PackageOp */
			continue;
		const u8 *q = p + i + 5;
		q += ((q[0] >> 6) & 3) + 1; /* PkgLength */
		q++;                        /* NumElements */
		int n = aml_int(q, &slp_typa);
		if (!n)
			return;
		q += n;
		if (!aml_int(q, &slp_typb))
			slp_typb = slp_typa;
		s5_known = true;
		return;
	}
}

static void parse_fadt(void)
{
	u64 phys = acpi_find_table_phys("FACP");
	if (!phys)
		return;
	const u8 *t = phys_to_virt(phys);
	u32 dsdt;
	memcpy(&dsdt, t + 40, 4);
	memcpy(&pm1a_cnt, t + 64, 4);
	memcpy(&pm1b_cnt, t + 68, 4);
	if (dsdt)
		parse_s5(dsdt);
}

void acpi_init(const void *rsdp_copy)
{
	const struct acpi_rsdp *rsdp = rsdp_copy;

	if (!rsdp || memcmp(rsdp->signature, "RSD PTR ", 8) || !checksum_ok(rsdp, 20)) {
		pr_warn("acpi: no valid RSDP\n");
		return;
	}
	if (rsdp->revision >= 2 && rsdp->xsdt_address) {
		rsdt_phys = rsdp->xsdt_address;
		use_xsdt = true;
	} else {
		rsdt_phys = rsdp->rsdt_address;
	}
	parse_madt();
	parse_fadt();
	pr_info("acpi: %s at %#llx, PM1a_CNT %#x, S5 %s\n", use_xsdt ? "XSDT" : "RSDT", rsdt_phys,
		pm1a_cnt, s5_known ? "found" : "missing");
}

int acpi_poweroff(void)
{
	if (!pm1a_cnt || !s5_known)
		return -ENODEV;
	outw((u16)pm1a_cnt, (u16)((slp_typa << 10) | (1 << 13)));
	if (pm1b_cnt)
		outw((u16)pm1b_cnt, (u16)((slp_typb << 10) | (1 << 13)));
	return 0; /* requested; the caller waits for it to take effect */
}
