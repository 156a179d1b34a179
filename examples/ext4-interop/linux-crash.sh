# Linux writes files on /mnt, fsyncing each, then more without a sync, then the machine
# stops at once (sysrq b: no sync, no umount), leaving ext4's journal to be replayed. The
# files whose fsync returned are listed with their checksums; cgwb must read them intact.
cd /mnt || exit 1
mkdir -p synced unsynced
i=0
while [ $i -lt 20 ]; do
	dd if=/dev/urandom of=synced/f$i bs=4096 count=$((i + 1)) conv=fsync 2> /dev/null &&
		echo "fsynced $(sha256sum synced/f$i)"
	i=$((i + 1))
done
i=0
while [ $i -lt 50 ]; do
	dd if=/dev/urandom of=unsynced/g$i bs=8192 count=4 2> /dev/null
	i=$((i + 1))
done
echo "===crash"
echo b > /proc/sysrq-trigger
