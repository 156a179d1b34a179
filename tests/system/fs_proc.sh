# /proc: meminfo and vmstat fields (Linux's names, sane values), slabinfo's layout, mounts,
# and the /proc/sys/vm knobs (read, write, invalid values refused with status 1).
# meminfo is read many times first, while memory scrubbed after boot may still be joining the
# allocator: MemFree must never exceed MemTotal in any one read.
guest_script <<'GUEST'
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat /proc/meminfo; done
cat /proc/vmstat
cat /proc/slabinfo
cat /proc/mounts
cat /proc/filesystems
cat /proc/uptime
echo 15 > /proc/sys/vm/dirty_ratio
echo rc-ratio=$?
echo dirty_ratio=$(cat /proc/sys/vm/dirty_ratio)
echo 20000000 > /proc/sys/vm/dirty_bytes
echo dirty_bytes=$(cat /proc/sys/vm/dirty_bytes) dirty_ratio_after=$(cat /proc/sys/vm/dirty_ratio)
echo 101 > /proc/sys/vm/dirty_ratio
echo rc-bad-ratio=$?
echo abc > /proc/sys/vm/dirty_background_ratio
echo rc-bad-text=$?
echo +5 > /proc/sys/vm/dirty_background_ratio
echo rc-plus=$?
cat /proc/sys/vm/drop_caches
echo rc-read-drop=$?
echo 3 > /proc/sys/vm/drop_caches
echo rc-drop=$?
echo 500 > /proc/sys/vm/dirty_writeback_centisecs
echo wb=$(cat /proc/sys/vm/dirty_writeback_centisecs) expire=$(cat /proc/sys/vm/dirty_expire_centisecs)
echo laptop=$(cat /proc/sys/vm/laptop_mode) dirtytime=$(cat /proc/sys/vm/dirtytime_expire_seconds)
echo 5 > /proc/sys/vm/laptop_mode
echo laptop-set=$(cat /proc/sys/vm/laptop_mode)
echo -1 > /proc/sys/vm/laptop_mode
echo rc-laptop-bad=$?
echo 0 > /proc/sys/vm/laptop_mode
echo x > /proc/nope
echo rc-create=$?
poweroff 0
GUEST
run_guest
expect_status 0
for f in MemTotal MemFree MemAvailable Buffers Cached Active Inactive 'Active\(file\)' \
	'Inactive\(file\)' Unevictable Dirty Writeback Shmem Slab; do
	expect_output "^$f: +[0-9]+ kB$"
done
expect_num 'meminfo reads' "$(grep -c '^MemTotal:' "$OUT")" -eq 20
while read -r total free; do
	expect_num MemTotal "$total" -gt 100000
	expect_num MemFree "$free" -gt 0
	expect_num MemFree "$free" -le "$total"
done < <(awk '$1 == "MemTotal:" { t = $2 } $1 == "MemFree:" { print t, $2 }' "$OUT")
for f in nr_free_pages nr_file_pages nr_dirty nr_writeback nr_dirtied nr_written \
	nr_dirty_threshold nr_dirty_background_threshold pgpgin pgpgout; do
	expect_output "^$f [0-9]+$"
done
expect_line 'slabinfo - version: 2.1'
expect_output '^kmalloc-64 +[0-9]+ +[0-9]+ +64 +64 +1 : tunables +0 +0 +0 : slabdata +[0-9]+ +[0-9]+ +0$'
expect_output '^buffer_head +[0-9]+ +[0-9]+ +[0-9]+ '
expect_line 'rootfs / rootfs rw 0 0'
expect_line 'proc /proc proc rw 0 0'
expect_line 'tmpfs /tmp tmpfs rw 0 0'
expect_output '^nodev	tmpfs$'
expect_output '^[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}$'
expect_line 'rc-ratio=0'
expect_line 'laptop=0 dirtytime=43200'
expect_line 'laptop-set=5'
expect_line 'rc-laptop-bad=1'
expect_line 'dirty_ratio=15'
expect_line 'dirty_bytes=20000000 dirty_ratio_after=0'
expect_line 'rc-bad-ratio=1'
expect_line 'rc-bad-text=1'
expect_line 'rc-plus=1'
expect_line 'cat: /proc/sys/vm/drop_caches: Permission denied'
expect_line 'rc-read-drop=1'
expect_line 'rc-drop=0'
expect_line 'wb=500 expire=3000'
expect_line 'cgwb: /proc/nope: Permission denied'
expect_line 'rc-create=1'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
