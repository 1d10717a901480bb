/* bsq_setup.c: the built-in set-ups (issue 21; BSQ.md "Verification cases"):
 * their parameters (bsq_setup_*) and initial fields (bsq_setup_fields).
 * Two-dimensional cases are x-z planes, one periodic cell thick in y, with
 * gravity along z.  Thermal cases use diffusive scaling (length H = 1,
 * dT = 1, time H^2/kappa): nu = Pr, kappa = 1, g beta = Ra Pr. */
#include <math.h>
#include <string.h>

#include "bsq_impl.h"
#include "spate.h"

static int bad(const char *key, double v)
{
	spate_log_error("bsq", "set-up: %s = %g: must be %s 0", key, v,
		strcmp(key, "nu") ? ">" : ">=");
	return -SPATE_EINVAL;
}

static void walls(struct bsq_params *p, int kind)
{
	int f;
	for (f = 0; f < BSQ_NFACE; f++)
		p->vel_bc[f] = kind;
}

/* One periodic cell in y, as thick as a cell in x. */
static void thin_y(struct bsq_params *p)
{
	p->ny = 1;
	p->ly = p->lx / p->nx;
	p->vel_bc[BSQ_YM] = p->vel_bc[BSQ_YP] = BSQ_PERIODIC;
}

/* Diffusive scaling (de Vahl Davis 1983): nu = Pr, kappa = 1, g beta =
 * Ra Pr, T0 = 0; temperature advanced. */
static void diffusive(struct bsq_params *p, double ra, double pr)
{
	p->nu = pr;
	p->kappa = 1;
	p->gbeta = ra * pr;
	p->T0 = 0;
	p->thermal = 1;
}

int bsq_setup_cavity(struct bsq_params *p, int n, double re, int three_d)
{
	if (n < 1)
		return bad("n", n);
	if (!(re > 0))
		return bad("re", re);
	p->nx = p->ny = p->nz = n;
	p->lx = p->ly = p->lz = 1;
	p->nu = 1 / re;
	p->thermal = 0;
	walls(p, BSQ_NOSLIP);
	if (!three_d)
		thin_y(p);
	p->vel_bc[BSQ_ZP] = BSQ_LID;
	p->lid[BSQ_ZP][0] = 1;
	p->setup = BSQ_SETUP_CAVITY;
	return 0;
}

int bsq_setup_dhc(struct bsq_params *p, int n, double ra, double pr)
{
	if (n < 1)
		return bad("n", n);
	if (!(ra > 0) || !(pr > 0))
		return bad(ra > 0 ? "pr" : "ra", ra > 0 ? pr : ra);
	p->nx = p->nz = n;
	p->lx = p->lz = 1;
	walls(p, BSQ_NOSLIP);
	thin_y(p);
	diffusive(p, ra, pr);
	p->temp_bc[BSQ_XM] = p->temp_bc[BSQ_XP] = BSQ_T_FIXED;
	p->wall_T[BSQ_XM] = 0.5;
	p->wall_T[BSQ_XP] = -0.5;
	p->temp_bc[BSQ_ZM] = p->temp_bc[BSQ_ZP] = BSQ_T_INSULATED;
	p->setup = BSQ_SETUP_DHC;
	return 0;
}

int bsq_setup_rb(struct bsq_params *p, int nx, int ny, int nz, double ra, double pr,
	int free_slip, double k, double amp)
{
	if (nx < 1 || ny < 1 || nz < 1)
		return bad("n", nx < 1 ? nx : ny < 1 ? ny : nz);
	if (!(ra > 0) || !(pr > 0) || !(k > 0))
		return bad(!(ra > 0) ? "ra" : !(pr > 0) ? "pr" : "k", !(ra > 0) ? ra : !(pr > 0) ? pr : k);
	p->nx = nx;
	p->ny = ny;
	p->nz = nz;
	p->lx = 2 * M_PI / k;
	p->ly = ny == 1 ? p->lx / nx : p->lx;
	p->lz = 1;
	walls(p, BSQ_PERIODIC);
	p->vel_bc[BSQ_ZM] = p->vel_bc[BSQ_ZP] = free_slip ? BSQ_FREESLIP : BSQ_NOSLIP;
	diffusive(p, ra, pr);
	p->temp_bc[BSQ_ZM] = p->temp_bc[BSQ_ZP] = BSQ_T_FIXED;
	p->wall_T[BSQ_ZM] = 0.5;
	p->wall_T[BSQ_ZP] = -0.5;
	p->wavenumber = k;
	p->amp = amp;
	p->setup = BSQ_SETUP_RB;
	return 0;
}

int bsq_setup_tg(struct bsq_params *p, int n, double nu)
{
	if (n < 1)
		return bad("n", n);
	if (!(nu >= 0))
		return bad("nu", nu);
	p->nx = p->nz = n;
	p->lx = p->lz = 2 * M_PI;
	walls(p, BSQ_PERIODIC);
	thin_y(p);
	p->nu = nu;
	p->thermal = 0;
	p->setup = BSQ_SETUP_TG;
	return 0;
}

/* Initial value of field comp (0..2 velocity, 3 T) at (x, z). */
static double initial(const struct bsq_params *p, int comp, double x, double z)
{
	switch (p->setup) {
	case BSQ_SETUP_TG:
		return comp == 0 ? -cos(x) * sin(z) : comp == 2 ? sin(x) * cos(z) : 0;
	case BSQ_SETUP_DHC: /* conduction between the side walls */
		return comp == 3 ? 0.5 - x / p->lx : 0;
	case BSQ_SETUP_RB: /* conduction plus the seeded mode */
		return comp == 3 ? 0.5 - z / p->lz +
			p->amp * cos(p->wavenumber * x) * sin(M_PI * z / p->lz) : 0;
	default:
		return 0;
	}
}

void bsq_setup_fields(struct bsq_state *s, const struct bsq_params *p)
{
	const struct bsq_grid *g = &s->g;
	bsq_real *const f[4] = { s->u, s->v, s->w, s->T };
	int comp, i, j, k;
	for (comp = 0; comp < 4; comp++) {
		/* u on x faces, w on z faces, v and T centred in x and z. */
		double sx = comp == 0 ? 1 : 0.5, sz = comp == 2 ? 1 : 0.5;
		for (k = 1; k <= g->nz; k++)
			for (j = 1; j <= g->ny; j++)
				for (i = 1; i <= g->nx; i++)
					f[comp][bsq_idx(g, i, j, k)] = (bsq_real)initial(p, comp,
						(i - sx) * g->dx, (k - sz) * g->dz);
	}
}
