# The commands a workload needs, run unchanged by cgwb and by busybox sh on the host
# (tests/system/shell_portable.sh compares the outputs).
t=/tmp/cmds.$$
mkdir -p $t
printf 'b 2 x\na 10 y\nc 1 z\na 10 y\nb 2 w\n' > $t/in
sort $t/in
echo --
sort -n -k 2 $t/in
echo --
sort -r -k 1,1 $t/in | uniq -c
echo --
sort -u $t/in
echo --
cut -d ' ' -f 2 $t/in | sort -n | uniq
cut -d ' ' -f 1,3 $t/in | head -n 2
cut -c 1-3 $t/in | tail -n 1
echo "a:b:c" | cut -d : -f 2-
tail -n 2 $t/in
tail -n +4 $t/in
echo hello world | tr a-z A-Z
echo hello | tr -d l
echo 'a   b' | tr -s ' '
echo "up 123.45 67.8" | grep -o '[0-9]*\.[0-9]*'
echo "aaa ab abbb" | grep -oE 'ab{1,2}'
echo "2024-01-15" | grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
basename /a/b/c.txt .txt
basename /a/b/
dirname /a/b/c
dirname c
dirname /c
printf '1\n2 3\n4\n' | xargs echo args:
printf '1 2 3 4 5\n' | xargs -n 2 echo
printf '%s\n' "'two words' \"and three\" back\\ slash" | xargs -n 1 echo quoted:
dd if=/dev/zero of=$t/f bs=4096 count=3 2>/dev/null
stat -c '%s %b' $t/f
s=$(date +%s)
case $s in [1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*) echo "date +%s ok" ;; *) echo "date +%s: $s" ;; esac
tail -2 $t/in
head -2 $t/in
printf 'hello\n' > $t/a
(cd $t && sha256sum a in > sums && sha256sum -c sums; echo "check $?")
(cd $t && echo x >> a && sha256sum -c sums 2> /dev/null; echo "check $?")
rm -r $t
