# The virtual hardware of `make compare`, written once for both kernels (sourced by
# scripts/compare/run): $SMP CPUs of multi-threaded TCG (1 unless set; scripts/qemu-cpus.sh),
# 512 MiB, a pc machine, and the workload disk as virtio-blk-pci on a raw image, opened
# without the host's page cache. scripts/run-qemu reads the same $SMP, so a benchmark run
# with SMP=2 boots cgwb and its Linux reference on two CPUs each.
#
#   compare_hardware IMG   sets the array HW to the QEMU arguments for disk image IMG
#   COMPARE_DISK_OPTS      how the disk is opened; benchmarks that boot cgwb through
#                          scripts/run-qemu beside a Linux reference open theirs so too
#   COMPARE_DRIVE_OPTS     more -drive options, for both kernels (`make compare DRIVE=...`):
#                          throttling.bps-write=33554432 makes the disk a 32 MB/s bottleneck
source "$(dirname "${BASH_SOURCE[0]}")/../qemu-cpus.sh"

COMPARE_DISK_OPTS=cache=none,aio=threads${COMPARE_DRIVE_OPTS:+,$COMPARE_DRIVE_OPTS}
compare_hardware()
{
	qemu_cpu_args "${SMP:-1}"
	HW=("${CPU_ARGS[@]}" -cpu qemu64 -m 512M -machine pc
		-nodefaults -no-user-config -display none -vga none -net none -no-reboot
		-serial stdio
		-drive "if=none,id=vd0,format=raw,file=$1,$COMPARE_DISK_OPTS"
		-device virtio-blk-pci,drive=vd0)
}
