# ext4 under memory pressure: 128 groups each held to 1 MiB/s of writes by io.max dirty
# 8 MiB apiece with dd bs=1M (128 MiB of dd buffers beside the page cache, in 512 MiB),
# and an unlimited group writes 96 MiB with fsync meanwhile. Reclaim must find the clean
# pages of files whose later IOs still wait for their conversion, and nothing may fail for
# lack of memory: no page allocation failure, every dd and the fsync succeed, the journal
# commits throughout (no abort), e2fsck is clean.
PATH=$PATH:/usr/sbin:/sbin
truncate -s 3G "$T/disk.img"
mke2fs -q -F -t ext4 "$T/disk.img" > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
umount /mnt 2> /dev/null # the boot mounted it
mount -t ext4 /dev/vda /mnt || poweroff 1
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir B
for i in $(seq 1 128); do mkdir t$i; echo "254:0 wbps=1048576" > t$i/io.max; done
for i in $(seq 1 128); do
	cgexec -g t$i sh -c "dd if=/dev/zero of=/mnt/t$i bs=1M count=8 2> /dev/null || echo dd-failed-$i" &
done
sleep 2
cgexec -g B dd if=/dev/zero of=/mnt/b bs=1M count=96 conv=fsync 2> /dev/null
echo b=$?
wait
sync
echo synced=$?
ls /mnt | grep -c '^t'
cat /mnt/t128 | wc -c
umount /mnt
echo umount=$?
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 512M --smp 2 --timeout 240
expect_status 0
expect_line 'b=0'
expect_line 'synced=0'
expect_line '128'
expect_line "8388608"
expect_line 'umount=0'
expect_no_output 'dd-failed'
expect_no_log 'page allocation failure|journal aborted|EXT4-fs error|error -'
