# make stress: rounds of writeback under churn, for SECONDS. Each round makes four groups
# (two held by io.max), has each write its own file and rewrite another group's (foreign
# inodes that switch wbs while the others dirty and write back on other CPUs), removes two
# groups while their pages are still being written and the other two dirty new inodes (wb
# lookups racing the kills in the bdi's index), syncs, drops the caches and checks the
# files' sums. Prints "stress: N rounds" at the end, "stress: BAD ..." on a wrong sum.
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
end=$(( $(date +%s) + SECONDS ))
rounds=0
while [ $(date +%s) -lt $end ]; do
	rounds=$((rounds + 1))
	for g in a b c d; do mkdir $g; done
	echo "254:0 wbps=4194304" > c/io.max
	echo "254:0 wbps=2097152" > d/io.max
	for g in a b c d; do
		cgexec -g $g dd if=/dev/urandom of=/mnt/$g bs=64K count=32 2> /dev/null &
	done
	wait
	sync
	echo 1 > /proc/sys/vm/drop_caches
	cgexec -g b dd if=/dev/zero of=/mnt/a bs=64K count=32 conv=notrunc 2> /dev/null &
	cgexec -g c dd if=/dev/zero of=/mnt/b bs=64K count=32 conv=notrunc 2> /dev/null &
	taskset -c 0 cgexec -g d dd if=/dev/zero of=/mnt/c bs=64K count=16 conv=notrunc 2> /dev/null &
	cgexec -g a dd if=/dev/zero of=/mnt/e bs=1M count=4 2> /dev/null &
	wait
	for g in a b; do
		cgexec -g $g sh -c "for i in \$(seq 1 64); do echo \$i > /mnt/n$g\$i; done" &
	done
	rmdir c d
	wait
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for f in a b; do
		[ "$(sha256sum /mnt/$f | cut -c1-64)" = "$(dd if=/dev/zero bs=64K count=32 2> /dev/null | sha256sum | cut -c1-64)" ] ||
			echo "stress: BAD /mnt/$f after round $rounds"
	done
	for g in a b; do
		[ "$(cat /mnt/n${g}64)" = 64 ] || echo "stress: BAD /mnt/n${g}64 after round $rounds"
	done
	rm /mnt/a /mnt/b /mnt/c /mnt/d /mnt/e /mnt/n*
	rmdir a b
done
echo "stress: $rounds rounds"
