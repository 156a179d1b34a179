# The CPUs of every guest (sourced by scripts/run-qemu and scripts/compare/hardware.sh, so
# cgwb and its Linux reference get the same).
#
#   qemu_cpu_args SMP [ACCEL]   sets the array CPU_ARGS to QEMU's -accel and -smp arguments
#
# Under TCG the guest always has room for a second CPU (maxcpus=2 at one CPU; the second is
# absent, and a disabled entry in the MADT). QEMU's TCG before 8.1 translates a guest
# with one possible CPU without memory barriers and with its locked instructions as plain
# loads and stores, since no other vCPU could see the difference; but the device models
# run on other host threads and read the rings in guest memory. A virtio driver's "store
# the used event, full barrier, load the used index" then lets the host CPU reorder the
# load before the store, the device reads the old event index and sends no interrupt, and
# the driver waits for a completion it has already been given (QEMU commit "tcg: Do not
# elide memory barriers for !CF_PARALLEL in system mode"). A second possible CPU makes
# QEMU translate for parallel execution, barriers and atomics included.
qemu_cpu_args()
{
	local smp=$1 accel=${2:-tcg}
	if [[ $accel == tcg ]]; then
		CPU_ARGS=(-accel tcg,thread=multi -smp "$smp,maxcpus=$((smp > 1 ? smp : 2))")
	else
		CPU_ARGS=(-accel "$accel" -smp "$smp")
	fi
}
