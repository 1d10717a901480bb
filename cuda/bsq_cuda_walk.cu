/* bsq_cuda_walk.cu: the walks of the Boussinesq CUDA backend's sweeps
 * (k_gs_sweep, cuda/bsq_cuda_gs.cu; k_gs_two, bsq_cuda_gs_two.cu): how many
 * blocks of a kernel the device holds at once, and how many planes each
 * block walks (bsq_cuda_launch.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
#include "bsq_waves.h"
}
#include "bsq_cuda_launch.h"

#include <cuda_runtime.h>

/* The device's multiprocessors (132 where it cannot be asked), once. */
static int sm_count(void)
{
	static int sms = 0;
	if (sms == 0) {
		int dev = 0;
		if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms,
			cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1)
			sms = 132, (void)cudaGetLastError();
	}
	return sms;
}

/* Blocks of kernel k (threads, dynamic shared bytes) the device holds at
 * once (bsq_cuda_launch.h). */
long bsq_cuda_slots(const void *k, int threads, size_t bytes)
{
	int n = 0;
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, threads, bytes) != cudaSuccess ||
		n < 1)
		n = 1, (void)cudaGetLastError();
	return (long)n * sm_count();
}

/* Planes a chunk of a sweep's walk (bsq_cuda_launch.h; bsq_wave_planes,
 * src/bsq_waves.h).  Chunks of at most 16 planes had made four waves of
 * blocks at 256^3, the last a tenth full.
 * The rule tries up to nz chunk sizes, two divisions each (about 1 us at
 * 512 planes on the build machine, a good part of a launch's host time),
 * and every sweep of a level asks the same: each thread keeps the picks of
 * the last WAVE_MEMO questions.  SPATE_BSQ_GS_PLANES=n:
 * n planes (least at the least), for tests and comparisons; read at every
 * call. */
#define WAVE_MEMO 16

int bsq_cuda_wave_planes(int nz, long tiles, long slots, int h, int least, int most)
{
	struct pick {
		int nz, h, least, most, n;
		long tiles, slots;
	};
	static thread_local struct pick memo[WAVE_MEMO];
	static thread_local unsigned next;
	const char *e = getenv("SPATE_BSQ_GS_PLANES");
	unsigned i;
	if (e && atoi(e) > 0)
		return atoi(e) < least ? least : atoi(e);
	for (i = 0; i < WAVE_MEMO && i < next; i++) {
		const struct pick &m = memo[i];
		if (m.nz == nz && m.tiles == tiles && m.slots == slots && m.h == h &&
			m.least == least && m.most == most)
			return m.n;
	}
	struct pick &m = memo[next++ % WAVE_MEMO];
	m.nz = nz, m.tiles = tiles, m.slots = slots, m.h = h, m.least = least, m.most = most;
	m.n = bsq_wave_planes(nz, tiles, slots, h, least, most);
	return m.n;
}
