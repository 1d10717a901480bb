/* swe_cuda_dt.cu: the time step of a decomposed run on GPUs of one process
 * (device-dt mode, swe_cuda_sub_dev.cu): k_dt_peers and its launch function
 * (declared in swe_cuda.h).  It sets dt with set_dt (swe_cuda_dev.h), as the
 * last block of stage 1 does on one GPU (swe_cuda_kern.cu). */
#include "swe_cuda_dev.h"

/* The time step of a decomposed run on GPUs of one process (device-dt
 * mode): the maxima of the stage-1 speeds of every subdomain (peers[k] + 2
 * slot: {ax, ay} of this step on subdomain k, in device memory that this
 * device can read), then set_dt as on one GPU, so every subdomain takes the
 * same dt as one GPU would.  Also clears this subdomain's slot of the next
 * step (own + 2 (slot ^ 1)): every peer read it a step ago.  One thread. */
__global__ static void k_dt_peers(kparams_t kp, ctl_t *q, swe_rbits *const *peers, int n,
	int slot, swe_rbits *own, const unsigned int *cnt, unsigned long long *acc)
{
	swe_rbits bx = 0, by = 0;
	for (int k = 0; k < n; k++) {
		const volatile swe_rbits *s = peers[k] + 2 * slot;
		bx = bits_max(bx, s[0]);
		by = bits_max(by, s[1]);
	}
	own[2 * (slot ^ 1)] = 0;
	own[2 * (slot ^ 1) + 1] = 0;
	q->ax1 = bx;
	q->ay1 = by;
	set_dt(kp, q);
	if (cnt && q->dt > 0)
		*acc += *cnt;
}

void swe_cuda_enqueue_dt_peers(const kparams_t *kp, struct swe_cuda_ctl *q,
	swe_rbits *const *peers, int n, int slot, swe_rbits *own, const unsigned int *cnt,
	unsigned long long *acc, void *stream)
{
	k_dt_peers<<<1, 1, 0, (cudaStream_t)stream>>>(*kp, q, peers, n, slot, own, cnt, acc);
}
