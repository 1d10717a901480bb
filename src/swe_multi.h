/* swe_multi.h: the backend that drives many subdomains (swe_multi.c), in
 * this process and across MPI ranks, through the phases of swe_sub.h. */
#ifndef SPATE_SWE_MULTI_H
#define SPATE_SWE_MULTI_H

#include "swe_sub.h"

/* The decomposed backend (swe_multi.c): many subdomains in this process and
 * across MPI ranks, each run by the sub-operations of one device backend. */
extern const struct spate_backend spate_backend_multi;

/* The backend for a run: the plain one of p->device for one subdomain in one
 * process, else spate_backend_multi.  Returns NULL after a message when the
 * combination is not available. */
const struct spate_backend *swe_backend_for(const struct swe_params *p);

#endif
