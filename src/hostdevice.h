/* hostdevice.h: the one switch between C and CUDA C for shared numerics.
 *
 * HOSTDEVICE marks functions compiled for both the host (C11) and the GPU
 * (nvcc).  `real` is the solver's floating-point type: float by default,
 * double when configured with --enable-double (SPATE_DOUBLE).  The R_*
 * macros pick the matching libm function so a formula is written once. */
#ifndef SPATE_HOSTDEVICE_H
#define SPATE_HOSTDEVICE_H

#ifdef __CUDACC__
#define HOSTDEVICE __host__ __device__
#else
#define HOSTDEVICE
#endif

#include <math.h>

#ifdef SPATE_DOUBLE
typedef double real;
#define R_SQRT(x) sqrt(x)
#define R_CBRT(x) cbrt(x)
#define R_ABS(x) fabs(x)
#define R_FMIN(a, b) fmin(a, b)
#define R_FMAX(a, b) fmax(a, b)
#define R_COPYSIGN(a, b) copysign(a, b)
#define SPATE_PRECISION "double"
#else
typedef float real;
#define R_SQRT(x) sqrtf(x)
#define R_CBRT(x) cbrtf(x)
#define R_ABS(x) fabsf(x)
#define R_FMIN(a, b) fminf(a, b)
#define R_FMAX(a, b) fmaxf(a, b)
#define R_COPYSIGN(a, b) copysignf(a, b)
#define SPATE_PRECISION "single"
#endif

#endif
