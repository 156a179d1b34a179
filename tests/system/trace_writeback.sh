# tracefs: writeback events enabled through /sys/kernel/tracing record Linux-format lines
# while dd writes to an ext2 disk; `trace` holds only the enabled events, each line
# well formed (an event turned off leaves no line); trace_pipe is a stream that blocks until
# events come (head takes three lines from it and stops).
truncate -s 128M "$T/disk.img"
mke2fs -q -F -t ext2 "$T/disk.img" > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt
cd /sys/kernel/tracing
ls
cat trace_clock
echo 40 > buffer_size_kb
echo events-off: $(cat events/writeback/enable)
rm -f /tmp/pipe.done
(head -n 3 trace_pipe > /tmp/pipe; echo > /tmp/pipe.done) &
[ -e /tmp/pipe.done ] && echo pipe-returned-early
echo 1 > events/writeback/global_dirty_state/enable
echo events-some: $(cat /sys/kernel/debug/tracing/events/writeback/enable)
dd if=/dev/zero of=/mnt/a bs=1M count=8 conv=fsync 2> /dev/null
wait
echo pipe-lines: $(grep -c ': global_dirty_state: ' /tmp/pipe)
echo ==pipe-begin==
head -n 5 /tmp/pipe
echo ==pipe-end==
echo 0 > events/writeback/global_dirty_state/enable
for e in writeback_queue writeback_exec writeback_start writeback_written writeback_write_inode; do
	echo 1 > events/writeback/$e/enable
done
echo > trace
echo after-clear: $(grep -vc '^#' trace)
dd if=/dev/zero of=/mnt/b bs=1M count=48 2> /dev/null
sync
echo 0 > tracing_on
cat trace > /tmp/trace
echo ==trace-begin==
cat /tmp/trace
echo ==trace-end==
echo 0 > events/enable
echo events-all-off: $(cat events/writeback/enable)
umount /mnt
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 256M --timeout 240
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'trace_pipe'
expect_line 'buffer_size_kb'
expect_line '[local] mono'
expect_line 'events-off: 0'
expect_line 'events-some: X'
expect_line 'events-all-off: 0'
expect_line 'after-clear: 0'
expect_no_output 'pipe-returned-early'
sed -n '/^==pipe-begin==$/,/^==pipe-end==$/p' "$OUT" | sed '1d;$d' > "$T/pipe"
pipe=$(sed -n 's/^pipe-lines: //p' "$OUT")
expect_num pipe-lines "${pipe:-0}" -eq 3
sed -n '/^==trace-begin==$/,/^==trace-end==$/p' "$OUT" | sed '1d;$d' > "$T/trace"
grep -q '^# tracer: nop$' "$T/trace" || fail "no '# tracer: nop' header"
grep -q '^#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION$' "$T/trace" ||
	fail "no column header"
line='^ *.+-[0-9]+ +\[[0-9]{3}\] [d.][N.][h.][0-9a-f.]\. +[0-9]+\.[0-9]{6}: '
events='writeback_(queue|exec|start|written|write_inode)'
grep -v '^#' "$T/trace" > "$T/lines"
expect_num trace-lines "$(wc -l < "$T/lines")" -ge 10
bad=$(grep -Ev "$line$events: " "$T/lines" | head -n 3)
[[ -z $bad ]] || fail "lines not in Linux's format or of events not enabled: $bad"
grep -Eq "$line"'global_dirty_state: dirty=[0-9]+ writeback=[0-9]+ bg_thresh=[0-9]+ thresh=[0-9]+ limit=[0-9]+ dirtied=[0-9]+ written=[0-9]+$' /dev/stdin \
	< <(grep -v '^#' "$T/pipe") || fail "no well-formed global_dirty_state line from trace_pipe"
grep -Eq "$line"'writeback_write_inode: bdi 254:0: ino=[0-9]+ sync_mode=[01] cgroup_ino=1$' "$T/lines" ||
	fail "no well-formed writeback_write_inode line"
grep -Eq "$line"'writeback_(start|written): bdi 254:0: sb_dev [0-9]+:[0-9]+ nr_pages=-?[0-9]+ sync_mode=[01] kupdate=[01] range_cyclic=[01] background=[01] reason=[a-z_]+ cgroup_ino=1$' "$T/lines" ||
	fail "no well-formed writeback_start/written line"
