# Runs unchanged under cgwb's shell and busybox sh (tests/system/shell_portable.sh compares
# the two outputs line by line). Only POSIX sh and the commands both have.
u="123.45 678.90"
echo "trim: ${u%% *} ${u#* } ${u% *}"
f=/a/b.tar.gz
echo "path: ${f##*/} ${f%/*} ${f%.*} ${f%%.*} ${f#/}"
s='a*b'
echo "quoted: ${s%"*"b} ${s#a\*}"

greet() {
	local who="$1"
	echo "hello $who ($# args: $*)"
	shift
	for a in "$@"; do echo "  arg [$a]"; done
	return 3
}
who=outer
greet world "x y" z
echo "status=$? who=$who"

early() {
	if [ "$1" -gt 1 ]; then
		return 0
	fi
	echo "early $1 falls through"
}
early 1; early 2

kind() {
	case $1 in
	[0-9]*) echo "$1: number" ;;
	*.sh | *.c) echo "$1: source" ;;
	"") echo "empty" ;;
	*) echo "$1: other"
	esac
}
kind 42; kind run.sh; kind main.c; kind ""; kind x
case abc in a?c) echo "case ?" ;; esac
case '*' in "*") echo "case quoted star" ;; esac

{ echo brace1; echo brace2; } > /tmp/brace.out
cat /tmp/brace.out
rm /tmp/brace.out

n=0
count() { n=$((n + 1)); }
count; count; count
echo "count=$n"
echo "sub=$(greet sub)"

printf 'one two three\n  lead  trail  \nesc\\ aped x\nlast' > /tmp/read.in
while read a b; do echo "read [$a] [$b]"; done < /tmp/read.in
while read -r line; do echo "raw [$line]"; done < /tmp/read.in
{ read x; read y z; } < /tmp/read.in
echo "x=[$x] y=[$y] z=[$z]"
IFS=: read p q r < /tmp/read.in
echo "p=[$p] q=[$q]"
rm /tmp/read.in
path=/usr/local/bin:/usr/bin::/bin
old_ifs=$IFS
IFS=:
for d in $path; do echo "dir [$d]"; done
IFS=$old_ifs

sh -c 'exit 3' & pb=$!
false & pc=$!
sh -c 'exit 5' & pa=$!
wait $pa; echo "wait a=$?"
wait $pb; echo "wait b=$?"
wait $pc; echo "wait c=$?"

name=world
cat <<EOF
heredoc: hello $name $((1 + 2)) "quotes" \$literal
EOF
cat <<'EOF'
literal: $name `x` \n
EOF
	cat <<-EOF
	stripped $name
		two tabs
	EOF
while read -r k v; do echo "kv $k=$v"; done <<EOF
a 1
b 2
EOF
f2() {
	cat <<EOF
in function: $1
EOF
}
f2 arg

g=/tmp/glob.$$
mkdir -p $g/sub
for f in b.c a.c a.h .hidden sub/x.c 'sp ace.c'; do echo > "$g/$f"; done
cd $g
echo glob: *.c
echo glob: ?.?
echo glob: [ab].[!h]
echo glob: */*.c
echo glob: *.none "*.c"
for f in $g/a*; do echo "abs ${f#$g/}"; done
cd /
rm -r $g

set -- one "two words" three
echo "set: $# [$2]"
shift 2
echo "after shift: $# $1"
set --
echo "cleared: $#"

while read -r w; do echo "piped $w"; done <<EOF | sort -r
apple
cherry
EOF
{ cat <<A; cat <<B; } | tr a-z A-Z
first
A
second
B
