# The sh subset: ; && || $? variables quoting comments arithmetic substitution.
guest_script <<'GUEST'
echo a; echo b
true && echo and-ok
false && echo and-wrong
false || echo or-ok
false; echo status=$?
X=hello; echo "$X world" '$X' ${X}!
Y="two  spaces"; echo "[$Y]"
echo esc\ aped "q\"uote"  # trailing comment
echo $((6 * 7)) $(( (1 + 2) * 3 - 10 / 2 )) $((7 % 3)) $((2 > 1))
N=$(echo inner); echo "sub=$N"
[ $$ -gt 0 ] && echo pid-ok
poweroff 0
GUEST
run_guest
expect_status 0
expect_line 'a'
expect_line 'b'
expect_line 'and-ok'
expect_no_output 'and-wrong'
expect_line 'or-ok'
expect_line 'status=1'
expect_line 'hello world $X hello!'
expect_line '[two  spaces]'
expect_line 'esc aped q"uote'
expect_line '42 4 1 1'
expect_line 'sub=inner'
expect_line 'pid-ok'
