/* swe_cpu.h: the CPU backend (swe_cpu.c: the step phases, the backend
 * tables spate_backend_cpu and swe_cpu_sub_ops) on its context
 * (swe_cpu_ctx.h), arrays (swe_cpu_mem.h), right-hand side (swe_cpu_rhs.h)
 * and subdomain rows (swe_cpu_sub.h). */
#ifndef SPATE_SWE_CPU_H
#define SPATE_SWE_CPU_H

#include "swe_cpu_ctx.h"
#include "swe_cpu_mem.h"
#include "swe_cpu_rhs.h"
#include "swe_cpu_sub.h"

#endif
