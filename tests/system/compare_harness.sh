# `make compare` once, short: the boot and a 16 MiB write on Debian's Linux and on cgwb,
# one run each; the table must have a figure in both columns, and the traced run a trace
# and plots from each kernel. Skipped (not failed) when Debian's packages cannot be
# fetched, e.g. offline.
COMPARE_TIMEOUT=${COMPARE_TIMEOUT:-180} "$SYS_ROOT/scripts/compare/run" -n 1 -w "boot seqwrite16" -o "$T/compare" \
	> "$T/compare.out" 2> "$T/compare.err"
rc=$?
if [[ $rc -eq 3 ]]; then
	skip "Debian's linux-image and busybox-static cannot be fetched ($(tail -n 1 "$T/compare.err"))"
	return 0
fi
[[ $rc -eq 0 ]] || fail "scripts/compare/run exited with $rc: $(tail -n 3 "$T/compare.err" | tr '\n' '|')"
for fig in 'boot | boot_ms' 'seqwrite16 | write_ms' 'seqwrite16 | write_sync_ms'; do
	# "| boot | boot_ms | 3310 (3310..3310) | 110 (110..110) | 0.03 |"
	grep -Eq "^\| $fig \| [0-9.]+ \([0-9.]+\.\.[0-9.]+\) \| [0-9.]+ \([0-9.]+\.\.[0-9.]+\) \| [0-9.]+ \|$" \
		"$T/compare.out" || fail "no Linux and cgwb figures for '$fig' in the table: $(cat "$T/compare.out" | tr '\n' '|')"
done
# run 1 is traced on both kernels, and both traces are drawn (docs/compare.md)
for k in linux cgwb; do
	expect_num "seqwrite16.$k.trace lines" "$(grep -vc '^#' "$T/compare/traces/seqwrite16.$k.trace" 2> /dev/null)" -gt 10
	[[ -s $T/compare/plots/seqwrite16.$k-summary.png ]] || fail "no plot seqwrite16.$k-summary.png"
done

# The disk-bound profile (docs/compare.md) on the drive, and a third kernel column: 64 MiB of
# O_DIRECT to the raw disk on cgwb in Linux's mode and with the bandwidth policy. At 100 MiB/s,
# less the tenth of a second's worth QEMU lets through at once, that takes 0.54 s; the host's
# image takes it in a tenth of that under TCG.
mkdir -p "$T/wl"
cat > "$T/wl/direct64.sh" <<'WL'
umount /mnt
t0=$(date +%s%N)
dd if=/dev/zero of=/dev/vda bs=1M seek=512 count=64 oflag=direct 2> /dev/null
t1=$(date +%s%N)
echo "RESULT direct_ms=$(((t1 - t0) / 1000000))"
WL
DISK_PROFILE=disk COMPARE_KERNELS="cgwb cgwb-bandwidth" PLOTS=0 "$SYS_ROOT/scripts/compare/run" \
	-n 1 -w direct64 -d "$T/wl" -o "$T/profile" > "$T/profile.out" 2> "$T/profile.err" ||
	fail "the disk-bound profile's run failed: $(tail -n 3 "$T/profile.err" | tr '\n' '|')"
grep -q "the disk-bound profile (throttling.bps-total=104857600,throttling.iops-total=3000)" \
	"$T/profile.out" || fail "the table does not name the disk-bound profile: $(head -n 1 "$T/profile.out")"
grep -q '^| workload | figure | Linux median (min..max) | cgwb median (min..max) | cgwb, bandwidth median (min..max) | cgwb/Linux | cgwb, bandwidth/Linux |$' \
	"$T/profile.out" || fail "no column for cgwb with the bandwidth policy: $(grep '^| workload' "$T/profile.out")"
for k in cgwb cgwb-bandwidth; do
	policy=linux
	[[ $k == cgwb-* ]] && policy=${k#cgwb-}
	grep -q "echo $policy > /proc/sys/vm/dirty_policy" "$T/profile/runs/direct64.$k-script.sh" ||
		fail "$k did not boot with the $policy policy"
	expect_num "64 MiB of O_DIRECT on $k in the disk-bound profile, ms" \
		"$(awk -v k="$k" '$1 == k && $4 == "direct_ms" { print $5 }' "$T/profile/results")" -ge 450
done
