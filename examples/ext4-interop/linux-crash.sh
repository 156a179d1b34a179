# Linux writes files on /mnt, fsyncing each, between directories made and removed (their
# freed blocks give the journal revoke records), then writes more without a sync, then the
# machine stops at once (sysrq b: no sync, no umount), leaving ext4's journal to be
# replayed. crashafter=K on the command line stops after K fsync'd files (default 20). The
# files whose fsync returned are listed with their checksums; cgwb must read them intact.
cd /mnt || exit 1
k=$(sed -n 's/.*crashafter=\([0-9]*\).*/\1/p' /proc/cmdline)
mkdir -p synced unsynced
i=0
while [ $i -lt "${k:-20}" ]; do
	mkdir -p scratch$i
	j=0
	while [ $j -lt 60 ]; do echo $j > scratch$i/a-longer-name-$j; j=$((j + 1)); done
	dd if=/dev/urandom of=synced/f$i bs=4096 count=$((i % 7 + 1)) conv=fsync 2> /dev/null &&
		echo "fsynced $(sha256sum synced/f$i)"
	[ $i -gt 0 ] && rm -r scratch$((i - 1))
	dd if=/dev/urandom of=unsynced/g$i bs=8192 count=4 2> /dev/null
	i=$((i + 1))
done
echo "===crash"
echo b > /proc/sysrq-trigger
