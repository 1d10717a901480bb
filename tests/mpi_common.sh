# mpi_common.sh: what the MPI test scripts share (sourced, not run): the
# checks that SPATE is set and that spate has MPI and an mpiexec (else exit
# 77), a temporary folder $tmp removed at exit, the OpenMPI settings for
# root and oversubscription, one OpenMP thread per rank, and check().
# Usage: . mpi_common.sh NAME (NAME: the script, in messages and $tmp).
mpi_name=$1
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "$mpi_name: SPATE is not set to the spate program" >&2
	exit 99
fi
if [ "${SPATE_HAVE_MPI:-no}" != yes ] || [ -z "${MPIEXEC:-}" ]; then
	echo "$mpi_name: spate built without MPI, or no mpiexec: skipped"
	exit 77
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-$mpi_name.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one OpenMP thread per rank: the ranks share this machine's cores
export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
fail=0

check() {   # check NAME STATUS [DETAIL]
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1${3:+: $3}"
		fail=$((fail + 1))
	fi
}
