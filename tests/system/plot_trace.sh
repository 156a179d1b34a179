# scripts/plot draws PNG figures from a trace captured in QEMU (cat of tracefs's trace
# while two groups write), from one the host simulator streamed to a file, and from the
# checked-in Linux 6.1-format fragment
# (tests/data/linux-6.1-writeback.trace): one per wb and a summary, each a real PNG of the
# expected size. Unknown events and malformed lines are skipped, counted and reported at
# the end. Without matplotlib scripts/plot fails (status 3), and so does this test:
# scripts/install-deps installs python3-matplotlib.

# expect_png FILE: a PNG signature, an IHDR of 864x648 (12x9 inches at 72 dpi), > 20 KB
expect_png()
{
	local f=$1 sig dims size
	[[ -f $f ]] || { fail "no figure $f"; return; }
	sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
	[[ $sig == 89504e470d0a1a0a ]] || fail "$(basename "$f"): not a PNG (starts with $sig)"
	dims=$(od -An -tu1 -j16 -N8 "$f" | awk '{ print ($1 * 2^24 + $2 * 2^16 + $3 * 256 + $4) "x" ($5 * 2^24 + $6 * 2^16 + $7 * 256 + $8) }')
	[[ $dims == 864x648 ]] || fail "$(basename "$f"): $dims pixels, expected 864x648"
	size=$(stat -c %s "$f")
	expect_num "$(basename "$f") bytes" "$size" -gt 20000
}

# --- a trace captured in QEMU
truncate -s 256M "$T/disk.img"
mke2fs -q -F -t ext2 "$T/disk.img" > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt
echo "+memory +io" > /sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/A /sys/fs/cgroup/B
echo 64M > /sys/fs/cgroup/B/memory.max
cd /sys/kernel/tracing
for e in global_dirty_state balance_dirty_pages bdi_dirty_ratelimit writeback_single_inode writeback_written; do
	echo 1 > events/writeback/$e/enable
done
cgexec -g A dd if=/dev/zero of=/mnt/a bs=1M count=96 2> /dev/null &
cgexec -g B dd if=/dev/zero of=/mnt/b bs=1M count=48 2> /dev/null
wait
sync
echo 0 > tracing_on
echo ==trace-begin==
cat trace
echo ==trace-end==
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 256M --timeout 300
expect_status 0
sed -n '/^==trace-begin==$/,/^==trace-end==$/p' "$OUT" | sed '1d;$d' > "$T/qemu.trace"
expect_num qemu-trace-lines "$(grep -vc '^#' "$T/qemu.trace")" -gt 100
if list=$("$SYS_ROOT/scripts/plot" "$T/qemu.trace" -o "$T/qemu" 2> "$T/qemu.err"); then
	printf '%s\n' "$list" > "$T/qemu.list"
	expect_png "$T/qemu/qemu-summary.png"
	expect_png "$T/qemu/qemu-wb-254_0-cg1.png"
	# A and B are cgroups 2 and 3 (ids in creation order); each wrote, so each has a figure
	expect_num qemu-wb-figures "$(grep -c -- '-wb-254_0-cg' "$T/qemu.list")" -ge 3
	for f in $(cat "$T/qemu.list"); do expect_png "$f"; done
	[[ -s $T/qemu.err ]] && fail "scripts/plot warned on a cgwb trace: $(head -n 2 "$T/qemu.err")"
else
	fail "scripts/plot on the QEMU trace: status $?: $(tail -n 3 "$T/qemu.err")"
fi

# --- a trace written by the host simulator (virtual time, the same tracepoints): the
# isolation scenario with the opt-in policy, streamed to a file (CGWB_SIM_TRACE)
sim_bin=$SYS_ROOT/build/host/unit-tests
[[ -x $sim_bin ]] || ${MAKE:-make} -s -C "$SYS_ROOT" build/host/unit-tests > /dev/null 2>&1
CGWB_SIM_TRACE=$T/sim.trace \
	CGWB_SIM_TRACE_EVENTS=global_dirty_state,balance_dirty_pages,bdi_dirty_ratelimit,writeback_written,writeback_single_inode \
	"$sim_bin" --filter='sim_throttle/past_linux_isolation_with_memory_max' > "$T/sim.log" 2>&1 ||
	fail "the simulator scenario failed: $(tail -n 3 "$T/sim.log")"
expect_num sim-trace-lines "$(grep -vc '^#' "$T/sim.trace" 2> /dev/null)" -gt 1000
grep -q '^# trace: 0 events lost$' "$T/sim.trace" || fail "the simulator's trace lost events"
if list=$("$SYS_ROOT/scripts/plot" "$T/sim.trace" -o "$T/sim" 2> "$T/sim.err"); then
	expect_png "$T/sim/sim-summary.png"
	# the root's wb and the groups A and B (cgroups 2 and 3)
	for f in $list; do expect_png "$f"; done
	expect_num sim-wb-figures "$(printf '%s\n' $list | grep -c -- '-wb-254_0-cg')" -ge 3
	[[ -s $T/sim.err ]] && fail "scripts/plot warned on the simulator's trace: $(head -n 2 "$T/sim.err")"
else
	fail "scripts/plot on the simulator's trace: status $?: $(tail -n 3 "$T/sim.err")"
fi

# --- the Linux fragment, with a malformed line and an unknown event added
frag=$SYS_ROOT/tests/data/linux-6.1-writeback.trace
{ cat "$frag"; echo 'this is not a trace line'; echo '    dd-1 [000] ..... 420.000001: balance_dirty_pages: bdi 254:0: limit=oops'; } > "$T/linux.trace"
if "$SYS_ROOT/scripts/plot" "$T/linux.trace" -o "$T/linux" --cgroup 3050=A --cgroup 3087=B \
	> "$T/linux.list" 2> "$T/linux.err"; then
	for f in linux-summary.png linux-wb-254_0-cg3050.png linux-wb-254_0-cg3087.png; do
		expect_png "$T/linux/$f"
	done
	expect_num linux-figures "$(wc -l < "$T/linux.list")" -eq 3
	grep -q 'skipped 2 malformed lines (the first, line [0-9]*: .this is not a trace line.)' \
		"$T/linux.err" || fail "no warning about the malformed lines: $(cat "$T/linux.err")"
	grep -q 'skipped 10 lines of events it does not know: block_rq_complete (10)' \
		"$T/linux.err" || fail "no warning about the unknown events: $(cat "$T/linux.err")"
else
	fail "scripts/plot on the Linux fragment: status $?: $(tail -n 3 "$T/linux.err")"
fi

# --- the line layouts tracefs options give: a TGID column (record-tgid), no flags column
# (irq-info off), a task name with spaces and dashes; every line is read, none skipped
cat > "$T/variants.trace" <<'EOF'
 Web Content-x-4242 (   4240) [000] d..1.    12.000100: bdi_dirty_ratelimit: bdi 8:16: write_bw=1024 awrite_bw=1000 dirty_rate=512 dirty_ratelimit=2048 task_ratelimit=2000 balanced_dirty_ratelimit=2040 cgroup_ino=7
              dd-77      [000]    12.500200: balance_dirty_pages: bdi 8:16: limit=5000 setpoint=4000 dirty=4100 bdi_setpoint=2000 bdi_dirty=2100 dirty_ratelimit=2048 task_ratelimit=1900 dirtied=32 dirtied_pause=32 paused=0 pause=12 period=14 think=2 cgroup_ino=7
              dd-77      [000] .....    13.000300: global_dirty_state: dirty=4100 writeback=20 bg_thresh=2500 thresh=5000 limit=5000 dirtied=9000 written=4880
EOF
"$SYS_ROOT/scripts/plot" "$T/variants.trace" -o "$T/variants" > "$T/variants.list" 2> "$T/variants.err" ||
	fail "scripts/plot on the line variants: status $?: $(tail -n 2 "$T/variants.err")"
[[ -s $T/variants.err ]] && fail "line variants not read: $(cat "$T/variants.err")"
expect_png "$T/variants/variants-wb-8_16-cg7.png"
# io.stat samples of that cgroup add its write rate (the figure changes, nothing else does);
# a line that is not a sample is skipped
printf '%s\n' '12.0 7 8:16 rbytes=0 wbytes=0 rios=0' 'not a sample' \
	'12.5 7 8:16 rbytes=0 wbytes=1048576 rios=0' '13.0 7 8:16 rbytes=0 wbytes=3145728 rios=0' \
	> "$T/iostat.samples"
"$SYS_ROOT/scripts/plot" "$T/variants.trace" -o "$T/iostat" --iostat "$T/iostat.samples" \
	> /dev/null 2> "$T/iostat.err" ||
	fail "scripts/plot --iostat: status $?: $(tail -n 2 "$T/iostat.err")"
expect_png "$T/iostat/variants-wb-8_16-cg7.png"
cmp -s "$T/iostat/variants-wb-8_16-cg7.png" "$T/variants/variants-wb-8_16-cg7.png" &&
	fail "the io.stat samples changed nothing in the figure"

# --- a file with no writeback event is an error, not an empty success
echo 'garbage' > "$T/empty.trace"
"$SYS_ROOT/scripts/plot" "$T/empty.trace" -o "$T/empty" > /dev/null 2> "$T/empty.err"
expect_num "plot status on a trace without events" "$?" -eq 1
true
