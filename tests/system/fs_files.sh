# File commands on /tmp (tmpfs): create, copy, move, link, list, remove, with coreutils'
# outputs, messages and exit statuses; redirections into real files. rm -r takes a tree
# 400 directories deep (a walk that recursed on the kernel stack overflowed it).
guest_script <<'GUEST'
mkdir -p /tmp/a/b/c
echo rc-mkdir=$?
echo hello > /tmp/a/f
echo world >> /tmp/a/f
cat /tmp/a/f
cp /tmp/a/f /tmp/a/b
cmp /tmp/a/f /tmp/a/b/f
echo rc-cmp=$?
mv /tmp/a/b/f /tmp/a/b/c/moved
ls /tmp/a/b/c
ln -s ../f /tmp/a/b/link
readlink /tmp/a/b/link
cat /tmp/a/b/link
ls -l /tmp/a/b/link
ls /tmp/a
wc -l /tmp/a/f
wc /tmp/a/f
seq 1 100 > /tmp/n
head -n 2 /tmp/n
head -c 5 /tmp/n | wc -c
truncate -s 1M /tmp/big
stat /tmp/big
touch /tmp/t1 /tmp/t2
ls /tmp
rm /tmp/a
echo rc-rm-dir=$?
rmdir /tmp/a
echo rc-rmdir=$?
rm -r /tmp/a
echo rc-rm-r=$?
ls /tmp/a
echo rc-ls=$?
cat /tmp/nope
echo rc-cat=$?
rm /tmp/nope
echo rc-rm=$?
rm -f /tmp/nope
echo rc-rm-f=$?
mkdir /tmp/t1
echo rc-mkdir-exists=$?
mkdir /tmp/x/y
echo rc-mkdir-noparent=$?
echo data > /tmp/t1/sub
echo rc-redirect-notdir=$?
echo 9 > /tmp/one
cmp /tmp/n /tmp/one
echo rc-cmp-differ=$?
cmp /tmp/n /tmp/t1
echo rc-cmp-empty=$?
mv /tmp/n /tmp/moved-n
cat /tmp/moved-n | wc -l
mkdir /tmp/d
mv /tmp/d /tmp/d/inside
echo rc-mv-into-itself=$?
cp /tmp/d /tmp/e
echo rc-cp-dir=$?
mkdir /tmp/deep
cd /tmp/deep
for i in $(seq 1 400); do mkdir d; echo x > d/f; cd d; done
cd /
rm -r /tmp/deep
echo rc-rm-deep=$?
ls /tmp/deep
poweroff 0
GUEST
run_guest
expect_status 0
expect_line 'rc-mkdir=0'
expect_line 'hello'
expect_line 'world'
expect_line 'rc-cmp=0'
expect_line 'moved'
expect_line '../f'
expect_output '^lrwxrwxrwx 1 root root +4 .* /tmp/a/b/link -> \.\./f$'
expect_line '2 /tmp/a/f'
expect_line ' 2  2 12 /tmp/a/f'
expect_line '1'
expect_line '2'
expect_line '5'
expect_line '  File: /tmp/big'
expect_output '^  Size: 1048576[[:space:]]+Blocks: 0 +IO Block: 4096 +regular file$'
expect_output '^Access: \(0644/-rw-r--r--\)'
expect_line "rm: cannot remove '/tmp/a': Is a directory"
expect_line 'rc-rm-dir=1'
expect_line "rmdir: failed to remove '/tmp/a': Directory not empty"
expect_line 'rc-rmdir=1'
expect_line 'rc-rm-r=0'
expect_line "ls: cannot access '/tmp/a': No such file or directory"
expect_line 'rc-ls=2'
expect_line 'cat: /tmp/nope: No such file or directory'
expect_line 'rc-cat=1'
expect_line "rm: cannot remove '/tmp/nope': No such file or directory"
expect_line 'rc-rm=1'
expect_line 'rc-rm-f=0'
expect_line "mkdir: cannot create directory '/tmp/t1': File exists"
expect_line 'rc-mkdir-exists=1'
expect_line "mkdir: cannot create directory '/tmp/x/y': No such file or directory"
expect_line 'rc-mkdir-noparent=1'
expect_line 'rc-redirect-notdir=1'
expect_line '/tmp/n /tmp/one differ: byte 1, line 1'
expect_line 'rc-cmp-differ=1'
expect_line 'cmp: EOF on /tmp/t1 which is empty'
expect_line 'rc-cmp-empty=1'
expect_line '100'
expect_line "mv: cannot move '/tmp/d' to a subdirectory of itself, '/tmp/d/inside'"
expect_line 'rc-mv-into-itself=1'
expect_line "cp: -r not specified; omitting directory '/tmp/d'"
expect_line 'rc-cp-dir=1'
expect_line 'rc-rm-deep=0'
expect_line "ls: cannot access '/tmp/deep': No such file or directory"
expect_no_log 'Kernel panic|kernel BUG|WARNING'
