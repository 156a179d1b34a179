# make stress: ext4 under memory pressure, for SECONDS. A Debian ext4 image (with its journal)
# is mounted on /e4; 64 groups held to 1 MiB/s of writes by io.max dirty 8 MiB each with
# dd bs=1M (their 64 MiB of dd buffers beside the page cache), round after round, beside an
# unlimited group writing and fsyncing 32 MiB. Nothing may fail for lack of memory: a
# failed dd or fsync prints "stress-pressure: BAD ...". Prints "stress-pressure: N rounds".
mkdir -p /e4
mount -t ext4 /dev/vdb /e4 || { echo "stress-pressure: BAD mount"; exit 1; }
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir B
read dev < /sys/block/vdb/dev
for i in $(seq 1 64); do mkdir p$i; echo "$dev wbps=1048576" > p$i/io.max; done
end=$(( $(date +%s) + SECONDS ))
rounds=0
while [ $(date +%s) -lt $end ]; do
	rounds=$((rounds + 1))
	for i in $(seq 1 64); do
		cgexec -g p$i sh -c "dd if=/dev/zero of=/e4/p$i bs=1M count=8 2> /dev/null || echo stress-pressure: BAD dd p$i" &
	done
	cgexec -g B dd if=/dev/zero of=/e4/b bs=1M count=32 conv=fsync 2> /dev/null ||
		echo "stress-pressure: BAD fsync in round $rounds"
	wait
	rm -f /e4/p*
done
for i in $(seq 1 64); do rmdir p$i; done
rmdir B
cd /
umount /e4 || echo "stress-pressure: BAD umount"
echo "stress-pressure: $rounds rounds"
