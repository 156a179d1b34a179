# Under QEMU's TCG every CPU flushes its own TLB once per 100 ms, so that QEMU, which sizes
# its software TLB only at flushes, lets it follow the working set (kernel/arch/tcg-tlb.c).
# The boot says so, and /proc/vmstat's nr_tlb_local_flush_all grows while nothing else
# flushes: the guest polls it until it has grown by 5 on each CPU, for at most 20000 reads.
guest_script <<'G'
cpus=$(grep -c ^processor /proc/cpuinfo)
grep nr_tlb_local_flush_all /proc/vmstat > /tmp/f
read name first < /tmp/f
now=$first
reads=0
while [ $((now - first)) -lt $((5 * cpus)) ] && [ $reads -lt 20000 ]; do
	grep nr_tlb_local_flush_all /proc/vmstat > /tmp/f
	read name now < /tmp/f
	reads=$((reads + 1))
done
echo "cpus $cpus"
echo "flushes_grew $((now - first))"
poweroff 0
G
run_guest
expect_status 0
if [[ ${ACCEL:-tcg} != tcg ]]; then
	expect_no_log 'tcg: each CPU flushes its TLB'
	skip "ACCEL=$ACCEL: the periodic flush is for TCG only"
fi
expect_log 'tcg: each CPU flushes its TLB every 100 ms, for QEMU to size its own'
cpus=$(output_value cpus)
expect_num "flushes while polling" "$(output_value flushes_grew)" -ge "$((5 * ${cpus:-1}))"
