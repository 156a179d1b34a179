# wbtop -b -n 2: two rounds of plain lines while a group A, limited to 4 MiB/s of writes
# by io.max, writes with fsync after the root group dirtied pages: each round has the global
# header and a line for the root's wb and A's, with figures that hold together (background
# below the dirty threshold, each wb's threshold within the global one, a bandwidth, the
# last pause in ms), and only the second round has io.stat write rates, A's more than 0
# and about its limit. Bad
# arguments get the usage line and status 2.
truncate -s 256M "$T/disk.img"
mke2fs -q -F -t ext2 "$T/disk.img" > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt
echo "+memory +io" > /sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/A
echo "254:0 wbps=4194304" > /sys/fs/cgroup/A/io.max
cgexec -g A dd if=/dev/zero of=/mnt/a bs=1M count=48 conv=fsync 2> /dev/null &
# wait until A's writeback has reached the disk (a condition, not a time)
until grep -q wbytes /sys/fs/cgroup/A/io.stat; do sleep 0.1; done
dd if=/dev/zero of=/mnt/b bs=1M count=32 2> /dev/null
wbtop -b -n 2 > /tmp/wbtop
echo ==wbtop-begin==
cat /tmp/wbtop
echo ==wbtop-end==
wbtop -x; echo bad-option=$?
wbtop -n 0; echo bad-rounds=$?
wbtop -b -d never; echo bad-delay=$?
kill %1 2> /dev/null
wait
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 256M --timeout 240
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'bad-option=2'
expect_line 'bad-rounds=2'
expect_line 'bad-delay=2'
expect_output '^usage: wbtop \[-b\] \[-n ROUNDS\] \[-d SECONDS\]$'
sed -n '/^==wbtop-begin==$/,/^==wbtop-end==$/p' "$OUT" | sed '1d;$d' > "$T/wbtop"
head_re='^wbtop up=[0-9]+\.[0-9]{3}s dirty=[0-9]+kB writeback=[0-9]+kB background=([0-9]+)kB thresh=([0-9]+)kB limit=[0-9]+kB$'
expect_num header-lines "$(grep -Ec "$head_re" "$T/wbtop")" -eq 2
expect_num column-lines "$(grep -c '^BDI    CGROUP ' "$T/wbtop")" -eq 2
# each round's figures; a line of the output file says what does not hold
awk '
	/^wbtop up=/ { round++
		match($0, /background=[0-9]+/); bg = substr($0, RSTART + 11, RLENGTH - 11)
		match($0, /thresh=[0-9]+/); th = substr($0, RSTART + 7, RLENGTH - 7)
		if (!(bg > 0 && bg < th)) print "round " round ": background " bg " not below thresh " th
		next }
	$1 == "254:0" {
		seen[round, $2] = 1
		for (i = 3; i <= 12; i++) if (i != 8 && i != 9 && $i !~ /^[0-9]+$/) print "round " round " " $2 ": field " i " is " $i
		if ($8 !~ /^[0-9]+ms$/) print "round " round " " $2 ": pause " $8
		if ($5 <= 0 || $5 > th) print "round " round " " $2 ": wb threshold " $5 " not within (0, " th "]"
		if ($6 <= 0) print "round " round " " $2 ": no write bandwidth"
		if (round == 1 && $9 != "-") print "round 1 " $2 ": an io.stat rate without a previous round: " $9
		if (round == 2 && $2 == "/A" && !($9 > 0 && $9 <= 3 * 4096)) print "round 2 /A: io.stat rate " $9 " kB/s, not about its 4096 kB/s limit"
	}
	END {
		for (r = 1; r <= 2; r++) for (g = 0; g < 2; g++) {
			cg = g ? "/A" : "/"
			if (!seen[r, cg]) print "round " r ": no line for " cg
		}
	}' "$T/wbtop" > "$T/wbtop.bad"
[[ -s $T/wbtop.bad ]] && fail "wbtop figures: $(head -n 5 "$T/wbtop.bad" | tr '\n' ';')"
true
