#!/bin/bash
# layers.sh: calls run one way.  No circle among the object files of src/,
# cuda/ and terrain/ as the linker sees them (tools/link-cycles: file A
# uses a symbol that file B defines, through nm), so that no file both
# calls and is called by another, directly or around a loop.  Then a
# planted circle (two objects made here that call each other) must be
# found, so that the check itself can fail.
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
command -v nm >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 || {
	echo "layers.sh: nm or python3 missing: skipped"; exit 77; }
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-layers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

cd "$build" || exit 99
objs=$(ls src/*.o cuda/*.o terrain/*.o 2>/dev/null | grep -v -e '/main\.o$' -e '/tests_')
[ -n "$objs" ] || { echo "layers.sh: no object files in $build: build first"; exit 99; }
# shellcheck disable=SC2086
if out=$(python3 "$top/tools/link-cycles" $objs); then
	echo "ok   $out"
else
	echo "FAIL $out"
	fail=1
fi

printf 'int b(void);\nint a(void) { return b(); }\n' >"$tmp/a.c"
printf 'int a(void);\nint b(void) { return 1; }\nint c(void) { return a(); }\n' >"$tmp/b.c"
if $cc -c -o "$tmp/a.o" "$tmp/a.c" && $cc -c -o "$tmp/b.o" "$tmp/b.c"; then
	out=$(python3 "$top/tools/link-cycles" "$tmp/a.o" "$tmp/b.o")
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^circle: .*a.o .*b.o" <<<"$out"; then
		echo "ok   a planted circle is found"
	else
		echo "FAIL a planted circle was not found (exit $rc): $out"
		fail=1
	fi
else
	echo "FAIL cannot compile the planted circle with $cc"
	fail=1
fi
exit $fail
