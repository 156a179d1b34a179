# Streaming (scripts/run-qemu --trace FILE --trace-events LIST): examples/demo.sh runs with
# writeback events enabled at boot (trace_event=) and their lines streamed to a host file
# over a virtio console, while the demo's output goes to the console as usual. The
# file starts with Linux's header, holds well-formed lines of the listed events only, every
# data folio the demo's two dd dirtied (2 x 16 MiB: a writeback_dirty_folio line for each
# folio from dd, of up to 16 pages each, aligned, one after the other up to the 4096th page:
# nothing was lost on the way), and ends with the lost count, which the kernel log
# repeats at power-off. `: > trace` (the shell's O_TRUNC open) clears the trace file.
# Whether the demo's own writeback runs as flusher work depends on how fast the guest
# runs (its dd's end with fsync), so a file left dirty and `sync` make one work item that
# must show up as writeback_start and writeback_written lines.
truncate -s 128M "$T/disk.img"
mke2fs -q -F -t ext2 "$T/disk.img" > /dev/null 2>&1 || fail "mke2fs"
{
	cat "$SYS_ROOT/examples/demo.sh"
	cat <<'GUEST'
echo left dirty > /mnt/unsynced
sync
cd /sys/kernel/tracing
echo 0 > tracing_on
echo held: $(grep -vc '^#' trace)
: > trace
echo held-after-truncate: $(grep -vc '^#' trace)
poweroff 0
GUEST
} | guest_script
listed='writeback_dirty_folio|global_dirty_state|writeback_start|writeback_written'
events=writeback:writeback_dirty_folio,writeback:global_dirty_state
events=$events,writeback:writeback_start,writeback:writeback_written
run_guest --disk "$T/disk.img" --memory 256M --timeout 240 --trace "$T/trace" \
	--trace-events "$events"
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line '-- done'
expect_log 'cmdline: .*trace_event=writeback:writeback_dirty_folio,writeback:global_dirty_state'
expect_log 'trace: streaming to hvc0'
expect_log 'trace: 0 events lost'
held=$(sed -n 's/^held: //p' "$OUT")
expect_num held "${held:-0}" -gt 0
expect_line 'held-after-truncate: 0'

[[ -s $T/trace ]] || fail "no trace file on the host"
[[ $(head -n 1 "$T/trace") == '# tracer: nop' ]] || fail "first line: $(head -n 1 "$T/trace")"
grep -q '^#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION$' "$T/trace" ||
	fail "no column header"
[[ $(tail -n 1 "$T/trace") == '# trace: 0 events lost' ]] ||
	fail "last line: $(tail -n 1 "$T/trace")"
grep -v '^#' "$T/trace" > "$T/lines"
line='^ *.+-[0-9]+ +\[[0-9]{3}\] [d.][N.][h.][0-9a-f.]\. +[0-9]+\.[0-9]{6}: '
bad=$(grep -Ev "$line($listed): " "$T/lines" | head -n 3)
[[ -z $bad ]] || fail "lines not in Linux's format or of events not listed: $bad"
# the bdev's metadata pages are dirtied too; the demo's data pages are dd's
grep -E '^ +dd-[0-9]+ .* writeback_dirty_folio: bdi 254:0: ino=[0-9]{1,6} index=[0-9]+$' \
	"$T/lines" | sed -E 's/.* ino=([0-9]+) index=([0-9]+)$/\1 \2/' | sort -n -k1,1 -k2,2 > "$T/folios"
expect_num dd-files "$(cut -d' ' -f1 "$T/folios" | sort -u | wc -l)" -eq 2
# each file's folios: from index 0, each the next power of two up to 16 pages after the last,
# aligned to it (a lost line leaves a gap), the last covering page 4095
bad=$(awk '$1 != ino { if (ino != "" && !(last <= 4095 && last + size >= 4096)) print "end", ino, last
		     ino = $1; if ($2 != 0) print "start", $1, $2; last = $2; size = 1; next }
	   { size = $2 - last
	     if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16 || last % size)
		     print "gap", $1, last, $2
	     last = $2 }
	   END { if (!(last <= 4095 && last + size >= 4096)) print "end", ino, last }' "$T/folios" | head -n 3)
[[ -z $bad ]] || fail "dd's folio lines do not cover its pages: $bad"
grep -Eq "$line"'global_dirty_state: dirty=[0-9]+ writeback=[0-9]+ bg_thresh=[0-9]+ thresh=[0-9]+ limit=[0-9]+ dirtied=[0-9]+ written=[0-9]+$' \
	"$T/lines" || fail "no well-formed global_dirty_state line"
grep -Eq "$line"'writeback_written: bdi 254:0: sb_dev [0-9]+:[0-9]+ nr_pages=-?[0-9]+ sync_mode=[01] kupdate=[01] range_cyclic=[01] background=[01] reason=[a-z_]+ cgroup_ino=[0-9]+$' \
	"$T/lines" || fail "no well-formed writeback_written line"
# time goes forward through the file
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]{6}:$/) { t = $i + 0; break } }
     t < last { print "time goes back: " $0; exit 1 } { last = t }' "$T/lines" > "$T/order" ||
	fail "$(cat "$T/order")"
