# One script, two shells: tests/system/portable/sh_features.sh runs in cgwb's shell and,
# unchanged, under busybox sh on the host; their outputs must be the same lines.
SCRIPT=$SYS_ROOT/tests/system/portable/sh_features.sh
{
	echo 'echo ===begin'
	cat "$SCRIPT"
	echo 'echo ===end'
	echo 'poweroff 0'
} | guest_script
run_guest
expect_status 0
sed -n '/^===begin$/,/^===end$/p' "$OUT" | sed '1d;$d' > "$T/cgwb.out"
[[ -s $T/cgwb.out ]] || fail "the guest printed nothing between the markers"

if ! command -v busybox > /dev/null; then
	echo "  SKIP the busybox half: no busybox on the host (scripts/install-deps installs it)"
else
	(cd "$T" && busybox sh "$SCRIPT") > "$T/busybox.out" 2>&1
	diff -u "$T/busybox.out" "$T/cgwb.out" > "$T/diff" ||
		fail "cgwb's output differs from busybox sh's: $(head -n 20 "$T/diff" | tr '\n' '|')"
fi
