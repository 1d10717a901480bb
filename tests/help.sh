#!/bin/bash
# help.sh: every command answers --help.  For each command that `spate
# --help` lists (its "Commands" lines), `spate CMD --help`, `spate CMD -h`
# (also after other arguments) and `spate help CMD` exit 0 and print, on
# standard output, the same text, whose first line is "Usage: spate CMD";
# nothing on standard error.  An unknown command, and `spate help` of one,
# exit 1 naming it.  At least the four commands of spate 0.1 must be listed,
# so that a help text that lists none cannot pass.
set -u
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "help.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-help.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {   # check WHAT STATUS [DETAIL]
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1 ${3:-}"; fail=$((fail + 1)); fi
}

"$SPATE" --help >"$tmp/help" 2>&1 || { echo "FAIL spate --help exits non-zero"; exit 1; }
cmds=$(sed -n '/^Commands/,/^  --help/p' "$tmp/help" | awk '/^  [a-z]/ { print $1 }')
for c in run devices bench map; do
	grep -qx "$c" <<<"$cmds"
	check "spate --help lists $c" $?
done
for c in $cmds; do
	"$SPATE" "$c" --help >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && head -1 "$tmp/out" | grep -Eq "^Usage: spate $c( |$)"
	check "spate $c --help: exit 0, \"Usage: spate $c\"" $? "(exit $rc: $(head -c 200 "$tmp/err" "$tmp/out"))"
	"$SPATE" "$c" -h >"$tmp/h" 2>&1 && cmp -s "$tmp/out" "$tmp/h"
	check "spate $c -h is spate $c --help" $?
	"$SPATE" help "$c" >"$tmp/h" 2>&1 && cmp -s "$tmp/out" "$tmp/h"
	check "spate help $c is spate $c --help" $?
	"$SPATE" "$c" some-argument --help >"$tmp/h" 2>&1 && cmp -s "$tmp/out" "$tmp/h"
	check "spate $c ARG --help: the help, not a run" $?
done
"$SPATE" no-such-command --help >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no-such-command" "$tmp/err"
check "an unknown command: exit 1 naming it" $? "(exit $rc)"
"$SPATE" help no-such-command >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "no-such-command" "$tmp/err"
check "spate help of an unknown command: exit 1 naming it" $? "(exit $rc)"
exit $((fail > 0))
