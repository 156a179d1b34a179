# An IO error injected by QEMU's blkdebug (reads covering sector 4096 of vda fail with EIO):
# dd reports it and stops; the rest of vda, the other disk and the kernel keep working.
# (Once triggered, the rule fails writes covering that sector too.)
head -c 8M /dev/urandom > "$T/bad.raw"
head -c 1M /dev/urandom > "$T/good.raw"
cat > "$T/blkdebug.conf" <<'CONF'
[inject-error]
event = "read_aio"
errno = "5"
sector = "4096"
CONF
first=$(head -c 256K "$T/bad.raw" | sha256sum | cut -d' ' -f1)
good=$(sha256sum < "$T/good.raw" | cut -d' ' -f1)
guest_script <<'GUEST'
dd if=/dev/vda of=/dev/null bs=64K iflag=direct
echo read=$?
dd if=/dev/vda bs=64K count=4 | sha256sum
sha256sum /dev/vdb
dd if=/dev/urandom of=/dev/vdb bs=4K count=2 oflag=direct status=none
echo write-other=$?
dd if=/dev/zero of=/dev/vda bs=4K seek=1 count=1 oflag=direct status=none
echo write-same=$?
dd if=/dev/zero of=/dev/vda bs=4K seek=512 count=1 oflag=direct status=none
echo write-bad=$?
poweroff 0
GUEST
# blkdebug's read_aio event comes from the raw format driver above it
run_guest --disk "bad,driver=raw,file.driver=blkdebug,file.config=$T/blkdebug.conf,file.image.filename=$T/bad.raw" \
	--disk "$T/good.raw"
expect_status 0
expect_line "dd: error reading '/dev/vda': Input/output error"
expect_line '32+0 records in'
expect_line 'read=1'
expect_line "$first  -"
expect_line "$good  /dev/vdb"
expect_line 'write-other=0'
expect_line 'write-same=0'
expect_line "dd: error writing '/dev/vda': Input/output error"
expect_line 'write-bad=1'
expect_no_log 'Kernel panic|WARNING'
