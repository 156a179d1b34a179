# Working directories (cd, pwd, relative paths in commands and redirections), df, mount
# and umount (busy while a directory inside is in use).
guest_script <<'GUEST'
pwd
mkdir /tmp/w
cd /tmp/w
pwd
echo rel > file
cat /tmp/w/file
ls
cd ..
pwd
cat w/file
cd /nonexistent
echo rc-cd=$?
cd /tmp/w/file
echo rc-cd-file=$?
pwd
df
df -h /tmp
mkdir /mnt/t
mount -t tmpfs none /mnt/t
echo rc-mount=$?
mount
cd /mnt/t
umount /mnt/t
echo rc-umount-busy=$?
cd /
umount /mnt/t
echo rc-umount=$?
umount /mnt/t
echo rc-umount-again=$?
mount -t nosuchfs none /mnt/t
echo rc-mount-bad=$?
poweroff 0
GUEST
run_guest
expect_status 0
expect_line '/'
expect_line '/tmp/w'
expect_line 'rel'
expect_line 'file'
expect_line '/tmp'
expect_line 'cgwb: cd: /nonexistent: No such file or directory'
expect_line 'rc-cd=1'
expect_line 'cgwb: cd: /tmp/w/file: Not a directory'
expect_line 'rc-cd-file=1'
expect_line 'Filesystem     1K-blocks      Used Available Use% Mounted on'
expect_output '^tmpfs +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /tmp$'
expect_line 'Filesystem      Size  Used Avail Use% Mounted on'
expect_line 'rc-mount=0'
expect_line 'none on /mnt/t type tmpfs (rw)'
expect_line 'umount: /mnt/t: target is busy.'
expect_line 'rc-umount-busy=32'
expect_line 'rc-umount=0'
expect_line 'umount: /mnt/t: not mounted.'
expect_line 'rc-umount-again=32'
expect_line 'mount: /mnt/t: unknown filesystem type'
expect_line 'rc-mount-bad=32'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
