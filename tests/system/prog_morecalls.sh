# System calls beyond the basic ones, as Linux 6.1 answers them (tests/programs/morecalls.c,
# whose checks pass on a Linux host too): sendfile from a file to a file and to a pipe, at
# the input's position or an offset, short at the end, its EBADF, EINVAL, ESPIPE and EFAULT
# cases; copy_file_range at positions and offsets, short at the end, and its EINVAL, EXDEV
# (from the ext4 disk to /tmp), EISDIR, EBADF, EOVERFLOW and EFAULT cases.
programs_image "$T/prog.img" 64M
guest_script <<'GUEST'
mkdir /mnt/mc
/mnt/bin/morecalls /mnt/mc /tmp
echo morecalls=$?
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --timeout 120
expect_status 0
for c in "sendfile at the input's position" "sendfile at an offset" \
	"sendfile past the end is short" "sendfile at the end moves nothing" \
	"sendfile of a whole file" "sendfile to a pipe" \
	"sendfile of a whole file to a pipe, a reader draining it" \
	"sendfile from a bad descriptor: EBADF" "sendfile to a bad descriptor: EBADF" \
	"sendfile from a write-only file: EBADF" "sendfile to a read-only file: EBADF" \
	"sendfile at a negative offset: EINVAL" "sendfile from a pipe: EINVAL" \
	"sendfile from a pipe at an offset: ESPIPE" "sendfile to an appending file: EINVAL" \
	"sendfile with a bad offset pointer: EFAULT" \
	"copy_file_range at the files' positions" "copy_file_range at offsets" \
	"copy_file_range past the end is short" "copy_file_range at the end copies nothing" \
	"copy_file_range within a file, no overlap" "copy_file_range with flags: EINVAL" \
	"copy_file_range to another file system: EXDEV" \
	"copy_file_range from a directory: EISDIR" \
	"copy_file_range to a read-only file: EBADF" \
	"copy_file_range to an appending file: EBADF" "copy_file_range to a pipe: EINVAL" \
	"copy_file_range from a bad descriptor: EBADF" \
	"copy_file_range overlapping within a file: EINVAL" \
	"copy_file_range at a negative offset: EOVERFLOW" \
	"copy_file_range with a bad offset pointer: EFAULT"; do
	expect_line "PASS $c"
done
expect_no_output "^FAIL"
expect_line "morecalls: 0 failed"
expect_line "morecalls=0"
