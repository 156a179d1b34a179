# The TSC is calibrated right on a busy host, and profile=2 counts ticks by function.
# Under TCG (and KVM) the guest's TSC is the host's, so the guest must find the host's rate:
# timing the PIT gate's edge once read 102 GHz, and 3.7-4.1 GHz often, for a 2.6 GHz TSC.
# /proc/profile: the ticks of a CPU-bound loop land in the shell's functions and the
# total counts them; a write clears the counts.
guest_script <<'G'
echo > /proc/profile
i=0
while [ $i -lt 3000 ]; do i=$((i + 1)); done
cat /proc/profile > /tmp/p1
tail -n 1 /tmp/p1
grep -c . /tmp/p1
echo > /proc/profile
head -n 1 /proc/profile
poweroff 0
G
run_guest --append "profile=2"
expect_status 0
expect_log 'profile: kernel profiling enabled \(shift 2, [0-9]+ buckets\)'
total=$(awk '$2 == "total" { print $1; exit }' "$OUT")
expect_num "ticks in the loop" "${total:-}" -gt 20
# the first line after the reset: at most a few ticks since it
first=$(awk 'f { print $1; exit } $2 == "total" { f = 1 }' "$OUT")
expect_num "ticks after the reset" "${first:-x}" -lt "${total:-0}"

host_mhz=$(awk -F': *' '/^cpu MHz/ { print int($2); exit }' /proc/cpuinfo)
guest_mhz=$(grep -aoE 'clock: TSC [0-9]+' "$LOG" | awk '{ print $3 }')
if ! grep -qw constant_tsc /proc/cpuinfo || [[ -z $host_mhz ]]; then
	skip "the host's TSC rate is not known (no constant_tsc or cpu MHz)"
elif [[ ${ACCEL:-tcg} != tcg && ${ACCEL:-tcg} != kvm ]]; then
	skip "ACCEL=$ACCEL: the guest's TSC may not be the host's"
else
	# within 1 %
	expect_num "guest TSC MHz x 100 / host's" "$((${guest_mhz:-0} * 100 / host_mhz))" -ge 99
	expect_num "guest TSC MHz x 100 / host's" "$((${guest_mhz:-0} * 100 / host_mhz))" -le 101
fi
