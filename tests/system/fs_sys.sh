# /dev, /sys/block and /sys/kernel/debug/bdi for a virtio disk: device nodes, Linux's stat
# formats and field names, and statistics that move after IO.
truncate -s 64M "$T/disk.img"
guest_script <<'GUEST'
ls -l /dev/vda /dev/null /dev/zero
cat /sys/block/vda/size
cat /sys/block/vda/ro
cat /sys/block/vda/dev
cat /sys/block/vda/queue/logical_block_size
ls /sys/block/vda
dd if=/dev/vda of=/dev/null bs=64K count=16 iflag=direct
echo stat: $(cat /sys/block/vda/stat)
cat /proc/diskstats
dd if=/dev/zero of=/dev/vda bs=4K count=64 conv=fsync
cat /sys/kernel/debug/bdi/254:0/stats
ls /sys/kernel/debug/bdi
poweroff 0
GUEST
run_guest --disk "$T/disk.img"
expect_status 0
expect_output '^brw-r----- 1 root root +254, 0 .* /dev/vda$'
expect_output '^crw-rw-rw- 1 root root +1, 3 .* /dev/null$'
expect_output '^crw-rw-rw- 1 root root +1, 5 .* /dev/zero$'
expect_line '131072'
expect_line '0'
expect_line '254:0'
expect_line '512'
expect_line 'queue'
expect_line 'stat'
# 17 fields; 16 reads of 128 sectors, plus the boot-time probe of the superblock (its
# 1024 bytes at 1024: two sectors)
expect_output '^stat: 17 [0-9]+ 2050 [0-9]+ ([0-9]+ ){12}[0-9]+$'
expect_output '^ 254       0 vda 17 [0-9]+ 2050 '
for f in BdiWriteback BdiReclaimable BdiDirtyThresh DirtyThresh BackgroundThresh BdiDirtied \
	BdiWritten; do
	expect_output "^$f: +[0-9]+ kB$"
done
expect_output '^BdiWriteBandwidth: +[0-9]+ kBps$'
for f in b_dirty b_io b_more_io b_dirty_time bdi_list; do
	expect_output "^$f: +[0-9]+$"
done
expect_output '^state: +[0-9a-f]+$'
expect_output '^BdiWritten: +256 kB$'
expect_line '254:0'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
