#!/bin/bash
# guard_mpi.sh: guard_multi.sh on 2 MPI ranks (2 and 3 subdomains): one
# reduction of the flags at each check, the plant on rank 1, the report
# once, by rank 0.  Skips (77) without MPI or mpiexec.
GUARD_MULTI=mpi exec "$(dirname "$0")/guard_multi.sh"
