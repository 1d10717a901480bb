#!/bin/bash
# examples/: the batch scripts are valid bash (bash -n), the Slurm ones ask
# for 1 node x 4 GPUs and 2 nodes x 4 GPUs, and every option they (and the
# mpiexec lines, comments included) give spate exists: plain options are in
# `spate --help`, and each --section.key=value is accepted by
# `spate run --print-params` (spate refuses unknown keys and bad values).
set -u
: "${SPATE:?}" "${top_srcdir:?}"
ex=$top_srcdir/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; bad=1; }

for f in "$ex"/slurm-1node-4gpu.sh "$ex"/slurm-2nodes.sh "$ex"/mpiexec.sh; do
	if bash -n "$f" 2> "$tmp/n.err"; then ok "bash -n $(basename "$f")"; else
		fail "bash -n $(basename "$f"):"; cat "$tmp/n.err"; fi
done
# sbatch NAME FILE KEY VALUE: the script asks Slurm for KEY=VALUE
sbatch_is() {
	if grep -q "^#SBATCH --$2=$3\$" "$1"; then ok "$(basename "$1"): #SBATCH --$2=$3"; else
		fail "$(basename "$1"): no '#SBATCH --$2=$3'"; fi
}
sbatch_is "$ex/slurm-1node-4gpu.sh" nodes 1
sbatch_is "$ex/slurm-1node-4gpu.sh" ntasks-per-node 4
sbatch_is "$ex/slurm-1node-4gpu.sh" gpus-per-node 4
sbatch_is "$ex/slurm-2nodes.sh" nodes 2
sbatch_is "$ex/slurm-2nodes.sh" ntasks-per-node 4
sbatch_is "$ex/slurm-2nodes.sh" gpus-per-node 4

# The options after "spate run SCENARIO" / "$SPATE" run SCENARIO, one per line.
python3 - "$ex"/slurm-1node-4gpu.sh "$ex"/slurm-2nodes.sh "$ex"/mpiexec.sh > "$tmp/opts" <<'PY'
import re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    # join continuation lines, also inside comments ("\\\n#   ")
    text = re.sub(r"\\\n#?\s*", " ", text)
    for line in text.split("\n"):
        m = re.search(r'(?:"\$SPATE"|\bspate) run \S+(.*)', line)
        if not m:
            continue
        for tok in m.group(1).split():
            if tok.startswith("--"):
                print(path.rsplit("/", 1)[1], tok.rstrip(".,;)"))
PY
n=$(wc -l < "$tmp/opts")
[ "$n" -ge 12 ] && ok "$n spate options found in the examples" || fail "only $n spate options found"
"$SPATE" --help > "$tmp/help" 2>&1
"$SPATE" run --help >> "$tmp/help" 2>&1
scen=$top_srcdir/scenarios/malpasset.conf
while read -r file opt; do
	name=${opt%%=*}
	case $name in
	--*.*)
		val=${opt#*=}
		case $val in *'$'*) val=x ;; esac
		if "$SPATE" run "$scen" "$name=$val" --print-params > /dev/null 2> "$tmp/p.err"; then
			ok "$file: $name=$val accepted by spate run"
		else
			fail "$file: $name=$val refused: $(head -n 1 "$tmp/p.err")"
		fi ;;
	*)
		if grep -q -- "^ *$name\b" "$tmp/help"; then ok "$file: $name is in spate --help"; else
			fail "$file: $name is not an option of spate run (spate --help)"; fi ;;
	esac
done < "$tmp/opts"

exit $bad
