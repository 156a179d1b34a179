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
#   DISK_PROFILE           cpu (the default: the disk as fast as the host's, so under TCG
#                          every figure is bound by the emulated CPU) or disk (below; `make
#                          compare PROFILE=disk`); COMPARE_DRIVE_OPTS come after its options
#
# The disk-bound profile: 100 MiB/s and 3000 requests/s, reads and writes together, which
# is a cloud volume's baseline (a general-purpose SSD volume gives 3000 IOPS and 125 MiB/s)
# or a SATA disk's sequential rate. Under TCG a buffered writer dirties 250-400 MiB/s on
# cgwb and 100-140 on Linux, so the disk, not the CPU, sets both kernels' pace: a 96 MiB
# write with fsync runs at 85-95 % of the disk's rate on each. The request rate is the
# per-request cost a real disk has (a third of a millisecond each when it is busy): 4 KiB
# random writes get 12 MiB/s, a journal's commit a few requests' time. QEMU's throttle
# lets a tenth of a second's worth through at once, as a disk's cache would.
source "$(dirname "${BASH_SOURCE[0]}")/../qemu-cpus.sh"

DISK_PROFILE=${DISK_PROFILE:-cpu}
case $DISK_PROFILE in
cpu) disk_profile_opts= ;;
disk) disk_profile_opts=throttling.bps-total=104857600,throttling.iops-total=3000 ;;
*) echo "DISK_PROFILE=$DISK_PROFILE: cpu or disk" >&2; exit 2 ;;
esac
disk_profile_opts=$disk_profile_opts${COMPARE_DRIVE_OPTS:+${disk_profile_opts:+,}$COMPARE_DRIVE_OPTS}
COMPARE_DISK_OPTS=cache=none,aio=threads${disk_profile_opts:+,$disk_profile_opts}
compare_hardware()
{
	qemu_cpu_args "${SMP:-1}"
	HW=("${CPU_ARGS[@]}" -cpu qemu64 -m 512M -machine pc
		-nodefaults -no-user-config -display none -vga none -net none -no-reboot
		-serial stdio
		-drive "if=none,id=vd0,format=raw,file=$1,$COMPARE_DISK_OPTS"
		-device virtio-blk-pci,drive=vd0)
}
