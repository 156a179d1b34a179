# Writing four times the RAM through the page cache finishes: reclaim frees clean pages and
# wakes writeback for dirty ones instead of running out. 64 MiB of RAM, a 256 MiB file.
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext2 "$T/disk.img" 512M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
dd if=/dev/zero of=/mnt/big bs=1M count=256
echo dd=$?
sync
stat /mnt/big
grep -E '^(Dirty|Writeback):' /proc/meminfo
grep -E '^(pgscan|pgsteal) ' /proc/vmstat
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 64M --timeout 300
expect_status 0
expect_line 'dd=0'
expect_output '^268435456 bytes .* copied'
expect_output 'Size: 268435456 '
expect_output '^Dirty: +0 kB$'
expect_output '^Writeback: +0 kB$'
steal=$(awk '$1 == "pgsteal" { print $2 }' "$OUT")
expect_num "pgsteal (pages reclaimed)" "$steal" -gt 20000
e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck: $(tail -n 3 "$T/fsck.log")"
