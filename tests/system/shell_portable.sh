# One script, two shells: each script in tests/system/portable/ runs in cgwb's shell and,
# unchanged, under busybox sh on the host; their outputs must be the same lines.
SCRIPTS=(sh_features commands)
{
	for s in "${SCRIPTS[@]}"; do
		echo "echo ===begin $s"
		cat "$SYS_ROOT/tests/system/portable/$s.sh"
		echo "echo ===end $s"
	done
	echo 'poweroff 0'
} | guest_script
run_guest
expect_status 0

if ! command -v busybox > /dev/null; then
	skip "the busybox half: no busybox on the host (scripts/install-deps installs it)"
fi
for s in "${SCRIPTS[@]}"; do
	sed -n "/^===begin $s\$/,/^===end $s\$/p" "$OUT" | sed '1d;$d' > "$T/$s.cgwb"
	[[ -s $T/$s.cgwb ]] || fail "$s: the guest printed nothing between the markers"
	command -v busybox > /dev/null || continue
	(cd "$T" && busybox sh "$SYS_ROOT/tests/system/portable/$s.sh") > "$T/$s.busybox" 2>&1
	diff -u "$T/$s.busybox" "$T/$s.cgwb" > "$T/$s.diff" ||
		fail "$s: cgwb's output differs from busybox sh's: $(head -n 30 "$T/$s.diff" | tr '\n' '|')"
done
