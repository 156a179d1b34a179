# Bad input to every cgroup file: the write fails (status 1 and an error message) and the
# file reads back exactly as before. Writable files get malformed values, read-only files
# get any write at all; the io controller's files are covered when it is there (a disk is
# attached so that 254:0 exists and io.max holds a limit to keep).
#
# The guest script is generated: for each (file, input) one write, its status and a
# read-back, printed as "FILE <- INPUT: rc=N" and "FILE = CONTENT" lines (the content on
# one line: the shell splits $(cat FILE) into words).
bad_write()
{
	local file=$1 input=$2
	printf "printf '%%s\\\\n' '%s' > %s\n" "$input" "$file"
	printf "echo \"%s <- %s: rc=\$?\"\n" "$file" "$input"
	printf "echo \"%s =\" \$(cat %s)\n" "$file" "$file"
}

{
	cat <<'GUEST'
cd /sys/fs/cgroup
echo +memory > cgroup.subtree_control
mkdir A A/B
echo 8M > A/memory.max
echo 4M > A/memory.high
[ -e io.stat ] && echo +io > cgroup.subtree_control
for f in cgroup.subtree_control cgroup.controllers memory.stat A/cgroup.procs \
	A/cgroup.subtree_control A/cgroup.controllers A/cgroup.events A/cgroup.stat \
	A/memory.max A/memory.high A/memory.current A/memory.stat A/memory.events A/memory.peak
do
	echo "$f =" $(cat $f)
done
GUEST
	for input in abc -1 '1 2' 0x10 99999 '' 1.5; do
		bad_write A/cgroup.procs "$input"
	done
	for input in memory +bogus '+memory +bogus' - + +memoryx '+memory,io'; do
		bad_write cgroup.subtree_control "$input"
	done
	# a child's own rules are the same
	for input in +bogus memory '-memory -bogus'; do
		bad_write A/cgroup.subtree_control "$input"
	done
	for f in A/memory.max A/memory.high; do
		for input in abc -1 1X 1.5M 'max max' maxi 0x10 '' 1M2 99999999999999999999999; do
			bad_write "$f" "$input"
		done
	done
	for f in cgroup.controllers A/cgroup.controllers A/cgroup.events A/cgroup.stat \
		A/memory.current A/memory.stat A/memory.events A/memory.peak memory.stat; do
		bad_write "$f" 1
	done
	cat <<'GUEST'
mkdir cgroup.x
echo mkdir-reserved=$?
mkdir memory.x
echo mkdir-memory=$?
rmdir A
echo rmdir-parent=$?
GUEST
	# the io controller's files, once it is there
	echo 'if [ -e A/io.max ]; then'
	echo 'echo io-present'
	echo 'echo "254:0 wbps=1048576" > A/io.max'
	echo 'echo "A/io.max =" $(cat A/io.max)'
	for input in garbage '254:0 bogus=1' '254:0 wbps=abc' '254:0 wbps=0' '254:0 wbps=' \
		'999:0 wbps=1000' 'wbps=1000' '254 wbps=1000'; do
		bad_write A/io.max "$input"
	done
	for f in A/io.stat io.stat; do
		bad_write "$f" 1
	done
	echo 'fi'
	echo 'poweroff 0'
} | guest_script
truncate -s 16M "$T/disk.img"
run_guest --disk "$T/disk.img"
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'mkdir-reserved=1'
expect_line 'mkdir-memory=1'
expect_line 'rmdir-parent=1'
expect_line 'A/memory.max = 8388608'
expect_line 'A/memory.high = 4194304'
expect_line 'A/cgroup.procs ='
# every bad write failed ...
writes=$(grep -c ' <- .*: rc=' "$OUT")
[[ $writes -ge 46 ]] || fail "only $writes bad writes ran"
expect_no_output ' <- .*: rc=0$'
# ... and every file reads back as it did before the first of them
while IFS= read -r line; do
	file=${line%% =*}
	first=$(awk -v f="$file =" 'index($0, f) == 1 { print; exit }' "$OUT")
	[[ $line == "$first" ]] || fail "$file changed: '$first' became '$line'"
done < <(grep -E '^[A-Za-z/._]+ =( |$)' "$OUT")
