#!/bin/bash
# man_keys.sh: the man pages document the program.
#   - man/spate-scenario.5.in documents, in bold (".B key", ".BR key ...",
#     or "\fBkey\fR" in running text), every key and section that
#     `spate run circular_dambreak.conf --print-params` prints, every key of
#     the key table of src/params.c, the special keys parsed outside it
#     ([boundary] <side>, <side>_level, <side>_hydrograph, <side>_discharge
#     as ".IB side _level" or "\fIside\fB_level"; [domain] crop; [initial]
#     reservoir_line, dry_disk; [parallel] workload; any other
#     `strcmp(section, "S") == 0 && strcmp(key, "K")` of params.c), and
#     every built-in set-up of the SETUPS list;
#   - man/spate.1.in has an entry for every command that `spate --help`
#     lists, an "Options of" paragraph for each that has options, and names
#     every long option of `spate --help` and of each `spate COMMAND --help`;
#   - every scenarios/NAME.conf the man pages name is installed (listed in
#     scenarios/local.mk).
#   A key counts only in the tag of an entry (the line after .TP).
# Exits 1 listing what is missing.
#
# Environment: SPATE (the program), SPATE_SCENARIOS, top_srcdir; set by
# make check.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "man_keys.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
src=${top_srcdir:-.}
scen=${SPATE_SCENARIOS:-$src/scenarios}
man5=$src/man/spate-scenario.5.in
man1=$src/man/spate.1.in
params=$src/src/params.c
for f in "$man5" "$man1" "$params" "$scen/circular_dambreak.conf"; do
	if [ ! -f "$f" ]; then
		echo "man_keys.sh: $f not found (set top_srcdir)" >&2
		exit 99
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-mankeys.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# The man sources with "\-" as "-" and "\(en"-like escapes left alone.
sed 's/\\-/-/g' "$man5" >"$tmp/man5"
sed 's/\\-/-/g' "$man1" >"$tmp/man1"
# The tags of the section-5 page (the line after each .TP): a key counts as
# documented when it has an entry of its own, not when it is only mentioned.
awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' "$tmp/man5" >"$tmp/tags5"

missing=()
n=0

# bold KEY: KEY in bold in a tag of the section-5 page?
bold() {
	local k=$1
	case $k in
	'' | *[!a-z0-9_]*) return 1 ;;   # keys are [a-z0-9_]; anything else is not one
	esac
	grep -Eq "^\.(B|BR|BI) +\"?$k([ \",]|$)|\\\\fB$k\\\\f[RPI]|\\\\fB$k\$" "$tmp/tags5"
}

# --------------------------------------------------------- section 5: keys
"$SPATE" run "$scen/circular_dambreak.conf" --print-params >"$tmp/params" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] || [ ! -s "$tmp/params" ]; then
	echo "FAIL spate run --print-params: exit $rc: $(head -c 400 "$tmp/err")"
	exit 1
fi
sec=
while IFS= read -r line; do
	case $line in
	\[*\])
		sec=${line#[}
		sec=${sec%]}
		n=$((n + 1))
		if ! grep -Eq "^\.SS +\"?\[$sec\]|\\\\fB\[$sec\]" "$tmp/man5"; then
			missing+=("spate-scenario.5: section [$sec] (printed by --print-params)")
		fi
		;;
	*' = '*)
		key=${line%% = *}
		n=$((n + 1))
		case $key in
		west* | east* | south* | north*)
			side=${key%%_*}
			suffix=
			[ "$side" = "$key" ] || suffix=_${key#*_}
			# a side's own keys may be documented for all sides at once
			if [ -n "$suffix" ] && grep -Eq "^\.IB +side +$suffix( |$)|\\\\fIside\\\\fB$suffix" "$tmp/tags5"; then
				continue
			fi
			;;
		esac
		bold "$key" || missing+=("spate-scenario.5: [$sec] $key (printed by --print-params)")
		;;
	esac
done <"$tmp/params"

# Every key of the table keys[] in params.c: { "section", "key", ...
grep -Eo '^[[:space:]]*\{ *"[a-z_]+", *"[a-z_0-9]+"' "$params" |
	sed -E 's/.*"([a-z_]+)", *"([a-z_0-9]+)"/\1 \2/' >"$tmp/table"
if [ ! -s "$tmp/table" ]; then
	echo "FAIL no key table found in $params (the test needs updating)"
	exit 1
fi
while read -r s k; do
	n=$((n + 1))
	bold "$k" || missing+=("spate-scenario.5: [$s] $k (key table of src/params.c)")
done <"$tmp/table"

# Special keys: those parsed outside the table, listed here and found in
# params.c by their strcmp(section, ...) && strcmp(key, ...) tests.
{
	printf '%s\n' 'domain crop' 'initial reservoir_line' 'initial dry_disk' 'parallel workload'
	grep -Eo 'strcmp\(section, "[a-z_]+"\) == 0 && strcmp\(key, "[a-z_0-9]+"\)' "$params" |
		sed -E 's/.*"([a-z_]+)".*"([a-z_0-9]+)".*/\1 \2/'
} | sort -u >"$tmp/special"
while read -r s k; do
	n=$((n + 1))
	bold "$k" || missing+=("spate-scenario.5: [$s] $k (special key of src/params.c)")
done <"$tmp/special"

# Every key of the Boussinesq module's table (src/bsq_scenario.c), in a tag
# of its own or of a list of keys (.BR a ", " b); the per-face keys as
# face, face_u, face_v, face_w, face_T.
bsqsrc=$src/src/bsq_scenario.c
if [ -f "$bsqsrc" ]; then
	grep -Eo '^[[:space:]]*\{ *"[a-z_]+", *"[A-Za-z_0-9]+"' "$bsqsrc" |
		sed -E 's/.*"([a-z_]+)", *"([A-Za-z_0-9]+)"/\1 \2/' >"$tmp/bsqtable"
	while read -r s k; do
		n=$((n + 1))
		grep -Eq "^\.(B|BR|BI) +(.*[ \"])?$k([ \",]|\$)" "$tmp/tags5" ||
			missing+=("spate-scenario.5: [$s] $k (key table of src/bsq_scenario.c)")
	done <"$tmp/bsqtable"
	# the tags .IR face " = ..." and .IB face _T; the lid's face_u, _v, _w
	n=$((n + 5))
	grep -Eq '^\.IR +face +"' "$tmp/tags5" ||
		missing+=("spate-scenario.5: [boundary] face (velocity) of the boussinesq model")
	grep -Eq '^\.IB +face +_T( |$)' "$tmp/tags5" ||
		missing+=("spate-scenario.5: [boundary] face_T of the boussinesq model")
	for sfx in _u _v _w; do
		grep -Eq "^\.IB +face +$sfx" "$tmp/man5" ||
			missing+=("spate-scenario.5: [boundary] face$sfx of the boussinesq model")
	done
fi

# [boundary]: the four sides and their suffixed keys.
for side in west east south north; do
	n=$((n + 1))
	bold "$side" || missing+=("spate-scenario.5: [boundary] $side")
done
for suffix in _level _hydrograph _discharge; do
	n=$((n + 1))
	grep -Eq "^\.IB +side +$suffix( |$)|\\\\fIside\\\\fB$suffix" "$tmp/tags5" ||
		missing+=("spate-scenario.5: [boundary] <side>$suffix (as .IB side $suffix or \\fIside\\fB$suffix)")
done

# Built-in set-ups (the SETUPS list of params.c).
setups=$(sed -n 's/^#define SETUPS "\(.*\)"/\1/p' "$params" | tr '|' ' ')
[ -n "$setups" ] || missing+=("test: no SETUPS list found in $params")
for s in $setups; do
	n=$((n + 1))
	bold "$s" || missing+=("spate-scenario.5: [domain] setup = $s")
done

# --------------------------------------------------------- section 1: options
# The commands: those `spate --help` lists (its lines "  name  args  what"
# between "Commands" and "--help"); each needs an entry in COMMANDS (".B
# name" or ".BI name ..." after .TP) and, when `spate name --help` lists
# options, an "Options of .B(R) name" paragraph; every long option of
# `spate --help` and of each `spate name --help` must be in spate.1.
"$SPATE" --help >"$tmp/help" 2>&1 || { echo "FAIL spate --help exits non-zero"; exit 1; }
cmds=$(sed -n '/^Commands/,/^  --help/p' "$tmp/help" | awk '/^  [a-z]/ { print $1 }')
[ -n "$cmds" ] || missing+=("test: no command found in spate --help")
awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' "$tmp/man1" >"$tmp/tags1"
for c in $cmds; do
	n=$((n + 1))
	grep -Eq "^\.(B|BI|BR) +\"?$c( |\"|$)" "$tmp/tags1" ||
		missing+=("spate.1: command $c (an entry of COMMANDS)")
	"$SPATE" "$c" --help >"$tmp/help-$c" 2>&1 ||
		missing+=("spate $c --help exits non-zero")
	cat "$tmp/help-$c" >>"$tmp/help"
	if grep -q '^Options:' "$tmp/help-$c"; then
		n=$((n + 1))
		grep -A1 '^Options of' "$tmp/man1" | grep -Eq "^\.(B|BR) +$c( |\$|:)" ||
			missing+=("spate.1: no \"Options of $c\" paragraph in OPTIONS")
	fi
done
opts=$(grep -Eo -- '--[a-z][a-z0-9-]*(\.[a-z_]+)?' "$tmp/help" | sort -u)
[ -n "$opts" ] || missing+=("test: no long option found in spate --help")
for o in $opts; do
	n=$((n + 1))
	# in the man source: "\-\-device", or "\fB\-\-\fIsection.key" split by fonts
	sed 's/\\f[BIRP]//g; s/\\c//g' "$tmp/man1" | grep -qF -- "$o" ||
		missing+=("spate.1: option $o (in spate --help or a command's --help)")
done

# every scenario the man pages name as installed (@pkgdatadir@/scenarios/F.conf,
# scenarios/F.conf) is one of scenarios/local.mk, which installs them
named=$(sed 's/\\f[BIRP]//g' "$man1" "$man5" | grep -Eo 'scenarios/[a-z0-9_]+\.conf' | sort -u)
for f in $named; do
	n=$((n + 1))
	grep -qE "^[[:space:]]*$f( |$)" "$src/scenarios/local.mk" ||
		missing+=("scenarios/local.mk: $f, which the man pages name, is not installed")
done

if [ ${#missing[@]} -gt 0 ]; then
	echo "FAIL man pages: ${#missing[@]} of $n items undocumented:"
	printf '  %s\n' "${missing[@]}"
	exit 1
fi
echo "ok   man pages document all $n keys, sections, set-ups, options and commands"
exit 0
