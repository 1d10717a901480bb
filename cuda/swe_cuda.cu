/* swe_cuda.cu: the CUDA backend of the shallow-water module.
 *
 * Loops, indexing, memory movement and reductions only: every formula comes
 * from swe_kern.h through the stencil layer swe_step.h, so a step here means
 * what cpu_advance (swe_cpu.c) means, kernel by kernel:
 *
 *   k_bc      ghost cells of U^n (swe_bc_cell), side values at time t
 *   k_stage1  L = L(U^n) on a 32 x TY tile: each cell reconstructed once per
 *             direction and each face flux computed once, into shared memory,
 *             then the cell right-hand sides (tile_rhs); the largest x- and
 *             y-face speeds by warp reduction + atomicMax on the bits
 *   k_dt      one thread: dt = swe_cfl_dt(ax, ay, ...) capped at t_stop, t += dt
 *   Euler:    k_euler   U^{n+1} = swe_euler_cell(U^n, L, dt)
 *   RK2:      k_bcrate  ghosts of L (swe_bc_cell_rate)
 *             k_stage2  U* = swe_euler_cell(U^n, L, dt) on the tile and its
 *                       two-cell halo, in shared memory; L(U*) on the tile by
 *                       tile_rhs on that tile; U^{n+1} = swe_rk2_cell(...)
 *
 * The time step never leaves the device: a control block in device memory
 * holds t, dt and the step count, and the host enqueues batches of steps (as
 * CUDA graphs) and reads the control block once per batch.  A step launched
 * after t reached t_stop is a no-op that copies U^n into U^{n+1}, so a batch
 * may overshoot the number of steps needed.
 *
 * Face fluxes shared by two tiles are computed by both, by the same code from
 * the same values, hence to the same bits: mass is conserved to round-off. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_step.h"
}

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Evaluates a CUDA runtime call; on failure reports file:line and returns
 * -SPATE_EDEVICE from the calling function. */
#define CUDA_CHECK(expr)                                                                  \
	do {                                                                              \
		cudaError_t cuda_check_err_ = (expr);                                     \
		if (cuda_check_err_ != cudaSuccess) {                                     \
			spate_log_error("cuda", "%s:%d: %s: %s", __FILE__, __LINE__, #expr,  \
				cudaGetErrorString(cuda_check_err_));                     \
			return -SPATE_EDEVICE;                                            \
		}                                                                         \
	} while (0)

/* Tile width in cells (one warp); the height TY is 4, 8 or 16 (16: single only). */
#define TX 32
/* Steps per captured CUDA graph (even: a graph returns to its parity). */
#define GRAPH_STEPS 8
/* Most steps between two reads of the control block. */
#define BATCH_MAX 256

/* Face speeds are >= 0, so their bit patterns order like unsigned integers. */
#ifdef SPATE_DOUBLE
typedef unsigned long long rbits;
__device__ static inline rbits real_bits(real a) { return (rbits)__double_as_longlong(a); }
__host__ __device__ static inline real bits_real(rbits b)
{
	real r;
	memcpy(&r, &b, sizeof r);
	return r;
}
#define RBITS_INF 0x7ff0000000000000ULL
#else
typedef unsigned int rbits;
__device__ static inline rbits real_bits(real a) { return (rbits)__float_as_uint(a); }
__host__ __device__ static inline real bits_real(rbits b)
{
	real r;
	memcpy(&r, &b, sizeof r);
	return r;
}
#define RBITS_INF 0x7f800000U
#endif

/* The control block: everything a step decides on the device. */
struct ctl {
	double t;          /* simulated time, s */
	double t_stop;     /* steps at t >= t_stop are no-ops */
	double dt;         /* this step's dt (0: no-op) */
	double last_dt;    /* dt of the last real step */
	double amax;       /* Euler: largest stage speed of the last real step */
	long long steps;   /* real steps taken */
	int err;           /* 1: non-finite speeds or dt <= 0; every step is a no-op */
	int pad;
	rbits ax1, ay1;    /* stage-1 face-speed maxima of this step */
	rbits ax2, ay2;    /* stage-2 maxima of the last real RK2 step */
};

/* Constant parameters of the kernels. */
struct kparams {
	struct swe_coef c;
	int nx, ny, pitch, cpitch;
	real inv_dx, inv_dy;
	double dx, dy, cfl;
	long ncell;         /* (ny + 2G) * pitch */
	struct swe_bcdev bcd;
	const struct swe_bc *bc;   /* device copy of p->bc[4] (hydrographs) */
};

struct swe_backend_ctx {
	int device, ty;
	struct kparams kp;
	real *w[2], *hu[2], *hv[2];   /* ping-pong states */
	real *Lw, *Lhu, *Lhv;         /* right-hand side */
	real *Bc, *Bm;
	struct swe_bc *bc;
	struct ctl *dctl, *hctl;      /* device control block and its pinned copy */
	int cur;                      /* parity of the current state */
	int integrator;
	cudaStream_t stream;
	cudaGraphExec_t graph[2];     /* GRAPH_STEPS steps from parity 0 / 1 */
	int have_graph[2];
	double t_stop_dev;            /* t_stop last written to the device */
};

/* ------------------------------------------------------------ device side */

/* The global arrays as a view (stencil layer's indexing). */
__device__ static inline struct swe_view gview(const struct kparams &kp, real *w, real *hu,
	real *hv, const real *Bc, const real *Bm)
{
	struct swe_view v;
	v.w = w;
	v.hu = hu;
	v.hv = hv;
	v.Bc = Bc;
	v.Bm = Bm;
	v.nx = kp.nx;
	v.ny = kp.ny;
	v.pitch = kp.pitch;
	v.cpitch = kp.cpitch;
	v.inv_dx = kp.inv_dx;
	v.inv_dy = kp.inv_dy;
	return v;
}

__device__ static inline int halted(const struct ctl *q)
{
	return q->t >= q->t_stop || q->err;
}

/* Boundary value of one side at time t: level, or inflow per unit width. */
__device__ static inline real side_value_dev(const struct kparams &kp, int side, double t)
{
	const struct swe_bc *b = kp.bc + side;
	double q;
	if (kp.bcd.kind[side] != SWE_BC_INFLOW)
		return kp.bcd.value[side];
	q = swe_hydrograph(b->t, b->q, kp.bcd.n[side], t);
	return (real)(q * kp.bcd.scale[side]);
}

/* Ghost cells of U: grid (ceil(max(nx,ny)/256), 4 sides, SWE_GHOST layers). */
__global__ static void k_bc(struct kparams kp, const struct ctl *q, real *w, real *hu,
	real *hv, const real *Bc, const real *Bm)
{
	int m = blockIdx.x * blockDim.x + threadIdx.x, side = blockIdx.y, layer = blockIdx.z;
	struct swe_view v;
	if (m >= (side < 2 ? kp.ny : kp.nx) || halted(q))
		return;
	v = gview(kp, w, hu, hv, Bc, Bm);
	swe_bc_cell(&v, side, kp.bcd.kind[side], side_value_dev(kp, side, q->t), kp.c.g, layer, m);
}

/* Ghost cells of L (RK2); runs after k_dt, so a no-op step is dt == 0. */
__global__ static void k_bcrate(struct kparams kp, const struct ctl *q, real *Lw, real *Lhu,
	real *Lhv)
{
	int m = blockIdx.x * blockDim.x + threadIdx.x, side = blockIdx.y, layer = blockIdx.z;
	struct swe_view v;
	if (m >= (side < 2 ? kp.ny : kp.nx) || q->dt == 0)
		return;
	v = gview(kp, NULL, NULL, NULL, NULL, NULL);
	swe_bc_cell_rate(&v, Lw, Lhu, Lhv, side, kp.bcd.kind[side], layer, m);
}

/* Largest value of a over the block, into *acc (atomicMax on the bits). -0
 * becomes +0 by adding 0; NaN keeps its (large) pattern and is caught by k_dt. */
template <int NT>
__device__ static inline void block_max(real a, rbits *acc, rbits *red)
{
	rbits b = real_bits(a + (real)0);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	for (int o = 16; o > 0; o >>= 1) {
		rbits u = __shfl_xor_sync(0xffffffffu, b, o);
		b = u > b ? u : b;
	}
	if (lane == 0)
		red[warp] = b;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int i = 1; i < NT / 32; i++)
			b = red[i] > b ? red[i] : b;
		atomicMax(acc, b);
	}
}

/* A tile's working set in shared memory (dynamic: it exceeds 48 KiB in
 * double precision).  Local cell (li, lj), 0 <= li < TX, 0 <= lj < TY. */
template <int TY>
struct tile {
	struct kp07_face rx[TY][TX + 2][2];  /* x-reconstruction of cell li-1: minus, plus face */
	struct kp07_face ry[TY + 2][TX][2];  /* y-reconstruction of cell (li, lj-1) */
	real sx[TY][TX], sy[TY][TX];         /* bed-slope sources of the tile's cells */
	struct kp07_flux fx[TY][TX + 1];     /* x-face between cells fi-1 and fi */
	struct kp07_flux fy[TY + 1][TX];     /* y-face between rows fj-1 and fj */
	real sw[(TY + 4) * (TX + 4)], shu[(TY + 4) * (TX + 4)], shv[(TY + 4) * (TX + 4)]; /* U* */
	rbits red[TY];
};

/* L on a TX x TY tile: each cell reconstructed once per direction
 * (swe_recon_x/y), each face flux once (kp07_central_upwind), then the cell
 * rates (swe_rhs), as swe_cell_rhs composes them.  v: a view in which the
 * tile's first cell is (bi, bj); nvx, nvy: the tile's cells inside the
 * domain.  The rate of local cell (li, lj) goes to L[0..2]; *mx, *my get the
 * largest x- and y-face speeds this thread saw. */
template <int TY>
__device__ static inline void tile_rhs(const struct swe_view *v, struct swe_coef c, int bi,
	int bj, int nvx, int nvy, struct tile<TY> &T, real L[3], real *mx, real *my)
{
	int li = threadIdx.x % TX, lj = threadIdx.x / TX;
	real ax = 0, ay = 0;
	for (int f = threadIdx.x; f < (TX + 2) * TY; f += TX * TY) {
		int ci = f % (TX + 2), cj = f / (TX + 2);
		if (ci <= nvx + 1 && cj < nvy) {
			struct kp07_face fm, fp;
			swe_recon_x(v, c.theta, bi + ci - 1, bj + cj, &fm, &fp);
			T.rx[cj][ci][0] = fm;
			T.rx[cj][ci][1] = fp;
			if (ci >= 1 && ci <= nvx)
				T.sx[cj][ci - 1] = kp07_bed_source(fm, fp, c.g, v->inv_dx);
		}
	}
	for (int f = threadIdx.x; f < TX * (TY + 2); f += TX * TY) {
		int ci = f % TX, cj = f / TX;
		if (ci < nvx && cj <= nvy + 1) {
			struct kp07_face fm, fp;
			swe_recon_y(v, c.theta, bi + ci, bj + cj - 1, &fm, &fp);
			T.ry[cj][ci][0] = fm;
			T.ry[cj][ci][1] = fp;
			if (cj >= 1 && cj <= nvy)
				T.sy[cj - 1][ci] = kp07_bed_source(fm, fp, c.g, v->inv_dy);
		}
	}
	__syncthreads();
	for (int f = threadIdx.x; f < (TX + 1) * TY; f += TX * TY) {
		int fi = f % (TX + 1), fj = f / (TX + 1);
		if (fi <= nvx && fj < nvy) {
			struct kp07_flux F = kp07_central_upwind(T.rx[fj][fi][1], T.rx[fj][fi + 1][0], c);
			T.fx[fj][fi] = F;
			ax = swe_max(ax, F.a);
		}
	}
	for (int f = threadIdx.x; f < TX * (TY + 1); f += TX * TY) {
		int fi = f % TX, fj = f / TX;
		if (fi < nvx && fj <= nvy) {
			struct kp07_flux G = kp07_central_upwind(T.ry[fj][fi][1], T.ry[fj + 1][fi][0], c);
			T.fy[fj][fi] = G;
			ay = swe_max(ay, G.a);
		}
	}
	__syncthreads();
	if (li < nvx && lj < nvy)
		swe_rhs(T.fx[lj][li], T.fx[lj][li + 1], T.fy[lj][li], T.fy[lj + 1][li], T.sx[lj][li],
			T.sy[lj][li], v->inv_dx, v->inv_dy, &L[0], &L[1], &L[2]);
	*mx = ax;
	*my = ay;
}

/* Stage 1: L = L(U^n) on the interior, and the largest face speeds. */
template <int TY>
__global__ static void __launch_bounds__(TX * TY) k_stage1(struct kparams kp, struct ctl *q,
	real *w, real *hu, real *hv, const real *Bc, real *Lw, real *Lhu, real *Lhv)
{
	extern __shared__ __align__(16) unsigned char smem[];
	struct tile<TY> &T = *reinterpret_cast<struct tile<TY> *>(smem);
	int i0 = blockIdx.x * TX, j0 = blockIdx.y * TY;
	int nvx = min(TX, kp.nx - i0), nvy = min(TY, kp.ny - j0);
	int li = threadIdx.x % TX, lj = threadIdx.x / TX;
	struct swe_view v = gview(kp, w, hu, hv, Bc, NULL);
	real mx, my, L[3];

	if (halted(q))
		return;
	tile_rhs<TY>(&v, kp.c, i0, j0, nvx, nvy, T, L, &mx, &my);
	if (li < nvx && lj < nvy) {
		long k = swe_vidx(&v, i0 + li, j0 + lj);
		Lw[k] = L[0];
		Lhu[k] = L[1];
		Lhv[k] = L[2];
	}
	block_max<TX * TY>(mx, &q->ax1, T.red);
	__syncthreads();
	block_max<TX * TY>(my, &q->ay1, T.red);
}

/* One thread: the step's dt from the stage-1 speeds (swe_cfl_dt), capped at
 * t_stop; dt = 0 marks a no-op step. */
__global__ static void k_dt(struct kparams kp, struct ctl *q, int integrator)
{
	rbits bx = q->ax1, by = q->ay1;
	double ax = (double)bits_real(bx), ay = (double)bits_real(by), cap, dt = 0;
	q->ax1 = 0;
	q->ay1 = 0;
	if (!halted(q)) {
		cap = q->t_stop - q->t;
		if (bx > RBITS_INF || by > RBITS_INF) {
			q->err = 1;
		} else {
			dt = swe_cfl_dt(ax, ay, kp.dx, kp.dy, kp.cfl, cap);
			if (!(dt > 0)) {
				q->err = 1;
				dt = 0;
			}
		}
		if (dt > 0) {
			q->t = dt >= cap ? q->t_stop : q->t + dt;
			q->steps++;
			q->last_dt = dt;
			q->amax = fmax(ax, ay);
			if (integrator == 2) {
				q->ax2 = 0;
				q->ay2 = 0;
			}
		}
	}
	q->dt = dt;
}

/* A no-op step: U^{n+1} = U^n on every cell, ghosts included. */
__device__ static inline void copy_all(const struct kparams &kp, const real *w, const real *hu,
	const real *hv, real *w1, real *hu1, real *hv1)
{
	long n = (long)gridDim.x * gridDim.y * blockDim.x;
	long k = ((long)blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
	for (; k < kp.ncell; k += n) {
		w1[k] = w[k];
		hu1[k] = hu[k];
		hv1[k] = hv[k];
	}
}

/* Forward Euler: U^{n+1} = swe_euler_cell(U^n, L, dt) on the interior. */
template <int TY>
__global__ static void __launch_bounds__(TX * TY) k_euler(struct kparams kp,
	const struct ctl *q, real *w, real *hu, real *hv, const real *Bm, const real *Lw,
	const real *Lhu, const real *Lhv, real *w1, real *hu1, real *hv1)
{
	int i = blockIdx.x * TX + threadIdx.x % TX, j = blockIdx.y * TY + threadIdx.x / TX;
	real dt = (real)q->dt;
	struct swe_view u;
	long k;
	if (q->dt == 0) {
		copy_all(kp, w, hu, hv, w1, hu1, hv1);
		return;
	}
	if (i >= kp.nx || j >= kp.ny)
		return;
	u = gview(kp, w, hu, hv, NULL, Bm);
	k = swe_vidx(&u, i, j);
	swe_euler_cell(&u, Lw, Lhu, Lhv, k, dt, kp.c, &w1[k], &hu1[k], &hv1[k]);
}

/* RK2 second stage on a TX x TY tile: U* on the tile and its halo in shared
 * memory, L(U*) by the stage-1 flux code, then U^{n+1}. */
template <int TY>
__global__ static void __launch_bounds__(TX * TY) k_stage2(struct kparams kp, struct ctl *q,
	real *w, real *hu, real *hv, const real *Bc, const real *Bm, const real *Lw,
	const real *Lhu, const real *Lhv, real *w1, real *hu1, real *hv1)
{
	enum { P = TX + 2 * SWE_GHOST, H = TY + 2 * SWE_GHOST };
	extern __shared__ __align__(16) unsigned char smem[];
	struct tile<TY> &T = *reinterpret_cast<struct tile<TY> *>(smem);
	int i0 = blockIdx.x * TX, j0 = blockIdx.y * TY;
	int nvx = min(TX, kp.nx - i0), nvy = min(TY, kp.ny - j0);
	int li = threadIdx.x % TX, lj = threadIdx.x / TX;
	real dt = (real)q->dt, mx, my, Ls[3];
	struct swe_view u = gview(kp, w, hu, hv, Bc, Bm), s;

	if (q->dt == 0) {
		copy_all(kp, w, hu, hv, w1, hu1, hv1);
		return;
	}
	/* U* on the tile and its halo (the array's cells only) */
	for (int e = threadIdx.x; e < H * P; e += TX * TY) {
		int gi = i0 - SWE_GHOST + e % P, gj = j0 - SWE_GHOST + e / P;
		if (gi < kp.nx + SWE_GHOST && gj < kp.ny + SWE_GHOST) {
			long k = swe_vidx(&u, gi, gj);
			swe_euler_cell(&u, Lw, Lhu, Lhv, k, dt, kp.c, &T.sw[e], &T.shu[e], &T.shv[e]);
		}
	}
	/* the tile as a view: local cell (0, 0) is global (i0, j0) */
	s = u;
	s.w = T.sw;
	s.hu = T.shu;
	s.hv = T.shv;
	s.Bc = Bc + (long)j0 * kp.cpitch + i0;
	s.Bm = NULL;
	s.pitch = P;
	__syncthreads();
	tile_rhs<TY>(&s, kp.c, 0, 0, nvx, nvy, T, Ls, &mx, &my);
	if (li < nvx && lj < nvy) {
		struct swe_view u1 = u, s1 = s;
		long k = swe_vidx(&u, i0 + li, j0 + lj), e = swe_vidx(&s, li, lj);
		/* one-cell views: swe_rk2_cell reads index 0 of each */
		u1.w = w + k;
		u1.hu = hu + k;
		u1.hv = hv + k;
		u1.Bm = Bm + k;
		s1.w = T.sw + e;
		s1.hu = T.shu + e;
		s1.hv = T.shv + e;
		swe_rk2_cell(&u1, &s1, &Ls[0], &Ls[1], &Ls[2], 0, dt, kp.c, &w1[k], &hu1[k],
			&hv1[k]);
	}
	block_max<TX * TY>(mx, &q->ax2, T.red);
	__syncthreads();
	block_max<TX * TY>(my, &q->ay2, T.red);
}

/* ------------------------------------------------------------- host side */

static int cuda_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError(); /* "no driver" or "no device": not an error */
		return 0;
	}
	return n;
}

static int cuda_describe(int i, char *buf, size_t len)
{
	struct cudaDeviceProp pr;
	CUDA_CHECK(cudaGetDeviceProperties(&pr, i));
	snprintf(buf, len, "%s, %.1f GiB, %d SMs, compute capability %d.%d", pr.name,
		pr.totalGlobalMem / 1073741824.0, pr.multiProcessorCount, pr.major, pr.minor);
	return 0;
}

static void cuda_fini(struct swe_backend_ctx *x)
{
	if (!x)
		return;
	cudaSetDevice(x->device);
	if (x->stream)
		cudaStreamSynchronize(x->stream);
	for (int p = 0; p < 2; p++) {
		if (x->have_graph[p])
			cudaGraphExecDestroy(x->graph[p]);
		cudaFree(x->w[p]);
		cudaFree(x->hu[p]);
		cudaFree(x->hv[p]);
	}
	cudaFree(x->Lw);
	cudaFree(x->Lhu);
	cudaFree(x->Lhv);
	cudaFree(x->Bc);
	cudaFree(x->Bm);
	cudaFree(x->bc);
	cudaFree(x->dctl);
	if (x->hctl)
		cudaFreeHost(x->hctl);
	if (x->stream)
		cudaStreamDestroy(x->stream);
	free(x);
}

/* Allocate the device arrays and upload the state; 0 or -SPATE_E*. */
static int upload(struct swe_backend_ctx *x, const struct swe_state *s0,
	const struct swe_params *p)
{
	size_t n = (size_t)x->kp.ncell * sizeof(real);
	size_t nc = (size_t)(s0->ny + 2 * SWE_GHOST + 1) * s0->cpitch * sizeof(real);
	real **arr[] = { &x->w[0], &x->hu[0], &x->hv[0], &x->w[1], &x->hu[1], &x->hv[1],
		&x->Lw, &x->Lhu, &x->Lhv, &x->Bm };
	for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) {
		CUDA_CHECK(cudaMalloc((void **)arr[a], n));
		CUDA_CHECK(cudaMemset(*arr[a], 0, n));
	}
	CUDA_CHECK(cudaMalloc((void **)&x->Bc, nc));
	CUDA_CHECK(cudaMalloc((void **)&x->bc, sizeof p->bc));
	CUDA_CHECK(cudaMalloc((void **)&x->dctl, sizeof *x->dctl));
	CUDA_CHECK(cudaMallocHost((void **)&x->hctl, sizeof *x->hctl));
	CUDA_CHECK(cudaMemcpy(x->w[0], s0->w, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hu[0], s0->hu, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hv[0], s0->hv, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bm, s0->Bm, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bc, s0->Bc, nc, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->bc, p->bc, sizeof p->bc, cudaMemcpyHostToDevice));
	memset(x->hctl, 0, sizeof *x->hctl);
	CUDA_CHECK(cudaMemcpy(x->dctl, x->hctl, sizeof *x->dctl, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaDeviceSynchronize());
	return 0;
}

/* Allow the tile kernels their dynamic shared memory; 0 or -SPATE_EDEVICE. */
template <int TY>
static int tile_attributes(void)
{
	int n = (int)sizeof(struct tile<TY>);
	CUDA_CHECK(cudaFuncSetAttribute(k_stage1<TY>, cudaFuncAttributeMaxDynamicSharedMemorySize, n));
	CUDA_CHECK(cudaFuncSetAttribute(k_stage2<TY>, cudaFuncAttributeMaxDynamicSharedMemorySize, n));
	return 0;
}

static int cuda_init(struct swe_backend_ctx **out, const struct swe_state *s0,
	const struct swe_params *p, int device)
{
	struct swe_backend_ctx *x = (struct swe_backend_ctx *)calloc(1, sizeof *x);
	const char *e = getenv("SPATE_CUDA_TILE_Y");
	int rc;
	if (!x)
		return -SPATE_ENOMEM;
	x->device = device;
	/* tile height: measured best on an H200 (single 16, double 4) */
	x->ty = sizeof(real) == 4 ? 16 : 4;
	if (e && (atoi(e) == 4 || atoi(e) == 8 || (atoi(e) == 16 && sizeof(real) == 4)))
		x->ty = atoi(e);
	x->integrator = p->integrator;
	x->kp.c = swe_coef_of(p);
	x->kp.nx = s0->nx;
	x->kp.ny = s0->ny;
	x->kp.pitch = s0->pitch;
	x->kp.cpitch = s0->cpitch;
	x->kp.inv_dx = (real)(1.0 / s0->dx);
	x->kp.inv_dy = (real)(1.0 / s0->dy);
	x->kp.dx = s0->dx;
	x->kp.dy = s0->dy;
	x->kp.cfl = p->cfl;
	x->kp.ncell = (long)(s0->ny + 2 * SWE_GHOST) * s0->pitch;
	swe_bcdev_fill(&x->kp.bcd, s0, p);
	if (cudaSetDevice(device) != cudaSuccess) {
		spate_log_error("cuda", "cannot use device %d: %s", device,
			cudaGetErrorString(cudaGetLastError()));
		free(x);
		return -SPATE_ENODEV;
	}
	rc = upload(x, s0, p);
#ifndef SPATE_DOUBLE
	if (rc == 0 && x->ty == 16)
		rc = tile_attributes<16>();
#endif
	if (rc == 0 && x->ty == 8)
		rc = tile_attributes<8>();
	if (rc == 0 && x->ty == 4)
		rc = tile_attributes<4>();
	if (rc == 0 && cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking) != cudaSuccess)
		rc = -SPATE_EDEVICE;
	if (rc) {
		spate_log_error("cuda", "cannot set up a %d x %d grid on device %d", s0->nx,
			s0->ny, device);
		cuda_fini(x);
		return rc;
	}
	x->kp.bc = x->bc;
	*out = x;
	return 0;
}

/* Enqueue one step from parity p (state p -> state 1-p). */
template <int TY>
static void enqueue_step_ty(struct swe_backend_ctx *x, int p)
{
	const struct kparams &kp = x->kp;
	int q = 1 - p, nmax = kp.nx > kp.ny ? kp.nx : kp.ny;
	dim3 gbc((nmax + 255) / 256, 4, SWE_GHOST);
	dim3 gt((kp.nx + TX - 1) / TX, (kp.ny + TY - 1) / TY);
	cudaStream_t st = x->stream;

	k_bc<<<gbc, 256, 0, st>>>(kp, x->dctl, x->w[p], x->hu[p], x->hv[p], x->Bc, x->Bm);
	k_stage1<TY><<<gt, TX * TY, sizeof(struct tile<TY>), st>>>(kp, x->dctl, x->w[p], x->hu[p], x->hv[p], x->Bc,
		x->Lw, x->Lhu, x->Lhv);
	k_dt<<<1, 1, 0, st>>>(kp, x->dctl, x->integrator);
	if (x->integrator == 1) {
		k_euler<TY><<<gt, TX * TY, 0, st>>>(kp, x->dctl, x->w[p], x->hu[p], x->hv[p],
			x->Bm, x->Lw, x->Lhu, x->Lhv, x->w[q], x->hu[q], x->hv[q]);
		return;
	}
	k_bcrate<<<gbc, 256, 0, st>>>(kp, x->dctl, x->Lw, x->Lhu, x->Lhv);
	k_stage2<TY><<<gt, TX * TY, sizeof(struct tile<TY>), st>>>(kp, x->dctl, x->w[p], x->hu[p], x->hv[p], x->Bc,
		x->Bm, x->Lw, x->Lhu, x->Lhv, x->w[q], x->hu[q], x->hv[q]);
}

static void enqueue_step(struct swe_backend_ctx *x, int p)
{
#ifndef SPATE_DOUBLE
	if (x->ty == 16) {
		enqueue_step_ty<16>(x, p);
		return;
	}
#endif
	if (x->ty == 4)
		enqueue_step_ty<4>(x, p);
	else
		enqueue_step_ty<8>(x, p);
}

/* Capture GRAPH_STEPS steps from parity p into x->graph[p]; 0 or -SPATE_E*. */
static int make_graph(struct swe_backend_ctx *x, int p)
{
	cudaGraph_t g;
	CUDA_CHECK(cudaStreamBeginCapture(x->stream, cudaStreamCaptureModeThreadLocal));
	for (int n = 0; n < GRAPH_STEPS; n++)
		enqueue_step(x, (p + n) & 1);
	CUDA_CHECK(cudaStreamEndCapture(x->stream, &g));
	CUDA_CHECK(cudaGraphInstantiate(&x->graph[p], g, 0));
	cudaGraphDestroy(g);
	x->have_graph[p] = 1;
	return 0;
}

/* Enqueue n steps: whole graphs, then single steps. */
static int enqueue_steps(struct swe_backend_ctx *x, long n)
{
	for (; n >= GRAPH_STEPS; n -= GRAPH_STEPS) {
		if (!x->have_graph[x->cur]) {
			int rc = make_graph(x, x->cur);
			if (rc)
				return rc;
		}
		CUDA_CHECK(cudaGraphLaunch(x->graph[x->cur], x->stream));
	}
	for (; n > 0; n--) {
		enqueue_step(x, x->cur);
		x->cur ^= 1;
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

/* How many steps to enqueue before the next look at the control block. */
static long batch_size(const struct ctl *h, double t_stop, long left)
{
	long n = BATCH_MAX;
	if (h->last_dt > 0) {
		double need = (t_stop - h->t) / h->last_dt;
		if (need < BATCH_MAX)
			n = (long)(need * 1.05) + 1;
	} else {
		n = 1; /* first step: no estimate yet */
	}
	if (left > 0 && n > left)
		n = left;
	return n < 1 ? 1 : n;
}

static int cuda_advance(struct swe_backend_ctx *x, double t_stop, long max_steps,
	struct swe_stats *st)
{
	struct ctl *h = x->hctl;
	long steps0 = (long)h->steps;
	CUDA_CHECK(cudaSetDevice(x->device));
	if (x->t_stop_dev != t_stop || h->steps == 0) {
		x->t_stop_dev = t_stop;
		CUDA_CHECK(cudaMemcpyAsync(&x->dctl->t_stop, &x->t_stop_dev, sizeof(double),
			cudaMemcpyHostToDevice, x->stream));
	}
	while (h->t < t_stop && !h->err) {
		long done = (long)h->steps - steps0, left = 0, n;
		int rc;
		if (max_steps > 0) {
			left = max_steps - done;
			if (left <= 0)
				break;
		}
		n = batch_size(h, t_stop, left);
		rc = enqueue_steps(x, n);
		if (rc)
			return rc;
		CUDA_CHECK(cudaMemcpyAsync(h, x->dctl, sizeof *h, cudaMemcpyDeviceToHost,
			x->stream));
		CUDA_CHECK(cudaStreamSynchronize(x->stream));
	}
	st->steps = (long)h->steps;
	st->t = h->t;
	st->last_dt = h->last_dt;
	st->amax = h->amax;
	if (x->integrator == 2 && h->steps > 0) {
		double ax = bits_real(h->ax2), ay = bits_real(h->ay2);
		st->amax = fmax(ax, ay);
	}
	if (h->err) {
		spate_log_error("cuda", "non-finite wave speed or time step at t = %g s, step %lld",
			h->t, h->steps);
		return -SPATE_ENUMERIC;
	}
	return 0;
}

static int cuda_download(struct swe_backend_ctx *x, struct swe_state *s)
{
	size_t n = (size_t)x->kp.ncell * sizeof(real);
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	CUDA_CHECK(cudaMemcpy(s->w, x->w[x->cur], n, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(s->hu, x->hu[x->cur], n, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(s->hv, x->hv[x->cur], n, cudaMemcpyDeviceToHost));
	return 0;
}

extern "C" const struct spate_backend spate_backend_cuda = {
	"cuda", cuda_count, cuda_describe, cuda_init, cuda_advance, cuda_download, cuda_fini
};
