# `make compare` once, short: the boot and a 16 MiB write on Debian's Linux and on cgwb,
# one run each; the table must have a figure in both columns, and the traced run a trace
# and plots from each kernel. Skipped (not failed) when Debian's packages cannot be
# fetched, e.g. offline.
"$SYS_ROOT/scripts/compare/run" -n 1 -w "boot seqwrite16" -o "$T/compare" \
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
