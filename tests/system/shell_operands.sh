# The commands' shared skeleton (shell/cmd_args.c): an unknown option or one missing its
# value (coreutils' message, the usage line, status 2), a missing operand (status 2), an
# operand that fails followed by one that works (the message, the second done, status 1;
# grep: 2), "--" before an operand that starts with '-', a value given in the option's
# word (-c%s), and options other than lowercase letters (ls -1).
guest_script <<'GUEST'
cd /tmp
echo 0123456789 > ten
echo a:b:c > abc
mkdir d
touch d/x
touch -- -dash
rm -x ten
echo rc-rm-badopt=$?
mkdir
echo rc-mkdir-none=$?
touch
echo rc-touch-none=$?
seq
echo rc-seq-none=$?
stat -c
echo rc-stat-novalue=$?
cut -x -f 1 abc
echo rc-cut-badopt=$?
sort -z abc
echo rc-sort-badopt=$?
tr -x a b
echo rc-tr-badopt=$?
truncate -s
echo rc-truncate-novalue=$?
df -q
echo rc-df-badopt=$?
rm nope ten
echo rc-rm-then=$?
ls ten
echo rc-ls-removed=$?
mkdir no/such made
echo rc-mkdir-then=$?
stat -c "made: %F" made
rmdir nope d
echo rc-rmdir-notempty=$?
stat -c "size: %s" nope abc
echo rc-stat-then=$?
stat -c%n abc
cat nope abc
echo rc-cat-then=$?
cut -d : -f 2 nope abc
echo rc-cut-then=$?
sha256sum nope abc
echo rc-sum-then=$?
grep -x b abc
echo rc-grep-badopt=$?
grep -c b nope abc
echo rc-grep-then=$?
grep -in B abc
echo rc-grep-match=$?
truncate -s 3 no/such abc
echo rc-truncate-then=$?
echo truncated: $(cat abc)
readlink nope
echo rc-readlink=$?
rm -- -dash
echo rc-rm-dashdash=$?
ls -1 d
echo rc-ls-1=$?
printf '1:b\n2:a\n3:c\n' > s
echo sorted: $(sort -rt: -k2 s)
poweroff 0
GUEST
run_guest
expect_status 0
expect_line "rm: invalid option -- 'x'"
expect_line 'usage: rm [-f] [-r] PATH...'
expect_line 'rc-rm-badopt=2'
expect_line 'mkdir: missing operand'
expect_line 'usage: mkdir [-p] DIR...'
expect_line 'rc-mkdir-none=2'
expect_line 'touch: missing file operand'
expect_line 'rc-touch-none=2'
expect_line 'seq: missing operand'
expect_line 'rc-seq-none=2'
expect_line "stat: option requires an argument -- 'c'"
expect_line 'rc-stat-novalue=2'
expect_line "cut: invalid option -- 'x'"
expect_line 'rc-cut-badopt=2'
expect_line "sort: invalid option -- 'z'"
expect_line 'rc-sort-badopt=2'
expect_line "tr: invalid option -- 'x'"
expect_line 'rc-tr-badopt=2'
expect_line "truncate: option requires an argument -- 's'"
expect_line 'rc-truncate-novalue=2'
expect_line "df: invalid option -- 'q'"
expect_line 'rc-df-badopt=2'
expect_line "rm: cannot remove 'nope': No such file or directory"
expect_line 'rc-rm-then=1'
expect_line "ls: cannot access 'ten': No such file or directory"
expect_line "mkdir: cannot create directory 'no/such': No such file or directory"
expect_line 'rc-mkdir-then=1'
expect_line 'made: directory'
expect_line "rmdir: failed to remove 'nope': No such file or directory"
expect_line "rmdir: failed to remove 'd': Directory not empty"
expect_line 'rc-rmdir-notempty=1'
expect_line "stat: cannot statx 'nope': No such file or directory"
expect_line 'size: 6'
expect_line 'rc-stat-then=1'
expect_line 'abc'
expect_line 'cat: nope: No such file or directory'
expect_line 'a:b:c'
expect_line 'rc-cat-then=1'
expect_line 'cut: nope: No such file or directory'
expect_line 'b'
expect_line 'rc-cut-then=1'
expect_line 'sha256sum: nope: No such file or directory'
expect_output '^[0-9a-f]{64}  abc$'
expect_line 'rc-sum-then=1'
expect_line "grep: invalid option -- 'x'"
expect_line 'rc-grep-badopt=2'
expect_line 'grep: nope: No such file or directory'
expect_line 'abc:1'
expect_line 'rc-grep-then=2'
expect_line '1:a:b:c'
expect_line 'rc-grep-match=0'
expect_line "truncate: cannot open 'no/such' for writing: No such file or directory"
expect_line 'rc-truncate-then=1'
expect_line 'truncated: a:b'
expect_line 'rc-readlink=1'
expect_no_output '^readlink:'
expect_line 'rc-rm-dashdash=0'
expect_line 'x'
expect_line 'rc-ls-1=0'
expect_line 'sorted: 3:c 1:b 2:a'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
