/* swe_state.c: a domain's state on the host: allocation, the derived bed
 * (ghost corners, cell centres), water at rest at a level, copies. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_state.h"

int swe_state_alloc(struct swe_state *s, int nx, int ny, double dx, double dy)
{
	size_t n, nc;
	memset(s, 0, sizeof *s);
	s->nx = nx;
	s->ny = ny;
	s->dx = dx;
	s->dy = dy;
	s->pitch = nx + 2 * SWE_GHOST;
	s->cpitch = s->pitch + 1;
	n = (size_t)(ny + 2 * SWE_GHOST) * s->pitch;
	nc = (size_t)(ny + 2 * SWE_GHOST + 1) * s->cpitch;
	s->w = spate_alloc(n * sizeof(real));
	s->hu = spate_alloc(n * sizeof(real));
	s->hv = spate_alloc(n * sizeof(real));
	s->Bm = spate_alloc(n * sizeof(real));
	s->Bc = spate_alloc(nc * sizeof(real));
	if (!s->w || !s->hu || !s->hv || !s->Bm || !s->Bc) {
		swe_state_free(s);
		return -SPATE_ENOMEM;
	}
	memset(s->w, 0, n * sizeof(real));
	memset(s->hu, 0, n * sizeof(real));
	memset(s->hv, 0, n * sizeof(real));
	memset(s->Bm, 0, n * sizeof(real));
	memset(s->Bc, 0, nc * sizeof(real));
	return 0;
}

void swe_state_free(struct swe_state *s)
{
	free(s->w);
	free(s->hu);
	free(s->hv);
	free(s->Bm);
	free(s->Bc);
	free(s->mask);
	free(s->crs_wkt);
	s->w = s->hu = s->hv = s->Bm = s->Bc = NULL;
	s->mask = NULL;
	s->crs_wkt = NULL;
	free(s->n2);
	for (int k = 0; k < s->nrain; k++)
		free(s->rain[k]);
	free(s->rain);
	free(s->rain_t);
	s->n2 = NULL;
	s->rain = NULL;
	s->rain_t = NULL;
	s->nrain = 0;
}

/* Mirror index across a boundary corner line at 0 and n. */
static int mirror(int I, int n)
{
	if (I < 0)
		return -I;
	if (I > n)
		return 2 * n - I;
	return I;
}

void swe_state_finish_bed(struct swe_state *s)
{
	int G = SWE_GHOST;
	for (int J = -G; J <= s->ny + G; J++)
		for (int I = -G; I <= s->nx + G; I++)
			if (I < 0 || J < 0 || I > s->nx || J > s->ny)
				s->Bc[swe_cidx(s, I, J)] = s->Bc[swe_cidx(s, mirror(I, s->nx), mirror(J, s->ny))];
	for (int j = -G; j < s->ny + G; j++)
		for (int i = -G; i < s->nx + G; i++)
			s->Bm[swe_idx(s, i, j)] = swe_bed_centre(s->Bc[swe_cidx(s, i, j)],
				s->Bc[swe_cidx(s, i + 1, j)], s->Bc[swe_cidx(s, i, j + 1)],
				s->Bc[swe_cidx(s, i + 1, j + 1)]);
}

/* x moved n representable values towards `to`. */
static real nextafter_real(real x, real to, int n)
{
	while (n-- > 0)
#ifdef SPATE_DOUBLE
		x = nextafter(x, to);
#else
		x = nextafterf(x, to);
#endif
	return x;
}

real swe_level_to_w(const struct swe_state *s, int i, int j, real L)
{
	real b00 = s->Bc[swe_cidx(s, i, j)], b10 = s->Bc[swe_cidx(s, i + 1, j)];
	real b01 = s->Bc[swe_cidx(s, i, j + 1)], b11 = s->Bc[swe_cidx(s, i + 1, j + 1)];
	real bw = swe_bed_face(b00, b01), be = swe_bed_face(b10, b11);
	real bs = swe_bed_face(b00, b10), bn = swe_bed_face(b01, b11);
	real top = swe_max(swe_max(bw, be), swe_max(bs, bn));
	real Bc = s->Bm[swe_idx(s, i, j)], h, best, b;
	if (L >= top)
		return L - Bc;
	/* Partially flooded: of the depths next to h(L), take one from which
	 * the solver recovers the face depths L - B_f of its neighbours to the
	 * bit (kp07_cell_level, kp07_face_depth), so that a lake at rest is at
	 * rest to the last bit across its shores; failing that, the level L. */
	h = best = swe_depth_at_level(L, bw, be, bs, bn);
	for (int k = 0; k < 64; k++) {
		real c = k % 2 ? nextafter_real(h, -INFINITY, k / 2 + 1) : nextafter_real(h, INFINITY,
			k / 2);
		real lam, fb[4] = { bw, be, bs, bn };
		int same = 1;
		if (c < 0)
			continue;
		lam = kp07_cell_level(c, bw, be, bs, bn, &b);
		for (int f = 0; f < 4; f++)
			same = same && kp07_face_depth(lam, fb[f] - b, fb[f], b) == swe_max(L - fb[f], 0);
		if (same)
			return c;
		if (lam == L - b && best == h)
			best = c;
	}
	return best;
}

/* Three Gaussian bumps on a square of side L (the thesis's "three bumps"). */
int swe_state_copy_interior(struct swe_state *dst, const struct swe_state *src)
{
	int rc = swe_state_alloc(dst, src->nx, src->ny, src->dx, src->dy);
	size_t n = (size_t)(src->ny + 2 * SWE_GHOST) * src->pitch * sizeof(real);
	if (rc)
		return rc;
	dst->x0 = src->x0;
	dst->y0 = src->y0;
	dst->bref = src->bref;
	memcpy(dst->w, src->w, n);
	memcpy(dst->hu, src->hu, n);
	memcpy(dst->hv, src->hv, n);
	memcpy(dst->Bm, src->Bm, n);
	memcpy(dst->Bc, src->Bc, (size_t)(src->ny + 2 * SWE_GHOST + 1) * src->cpitch * sizeof(real));
	return 0;
}

double *swe_bed_values(const struct swe_state *s)
{
	double *b = malloc((size_t)s->nx * s->ny * sizeof *b);
	for (int j = 0; b && j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			size_t k = (size_t)j * s->nx + i;
			b[k] = s->mask && s->mask[k] ? NAN : s->Bm[swe_idx(s, i, j)] + s->bref;
		}
	return b;
}
