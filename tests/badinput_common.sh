# badinput_common.sh: sourced by badinput.sh and badinput2.sh: expect(), one
# bad-input case: a run of spate, its exit status and fragments of stderr.
# The caller sets SPATE, tmp (a scratch folder), n and fail (counters).

# expect NAME STATUS FRAGMENT... -- ARGS...: run spate with ARGS; the exit
# status must be STATUS and stderr must contain every FRAGMENT.
expect() {
	local name=$1 want=$2 frags=() rc err missing=""
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		frags+=("$1")
		shift
	done
	shift
	n=$((n + 1))
	"$SPATE" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	err=$(head -c 2000 "$tmp/err")
	for f in "${frags[@]}"; do
		grep -qF -- "$f" "$tmp/err" || missing="$missing '$f'"
	done
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $name: exit status $rc, expected $want; stderr: $err"
		fail=$((fail + 1))
	elif [ -n "$missing" ]; then
		echo "FAIL $name: stderr lacks$missing; stderr: $err"
		fail=$((fail + 1))
	else
		echo "ok   $name: exit $rc: $(head -n 1 "$tmp/err")"
	fi
}
