/* bsq_state.c: a Boussinesq state's life: validation, allocation, initial
 * fields and ghosts (bsq_init), and release (bsq_free). */
#include <stdlib.h>
#include <string.h>

#include "bsq_impl.h"
#include "spate.h"

static bsq_real *field(size_t n)
{
	bsq_real *a = spate_alloc(n * sizeof *a);
	if (a)
		memset(a, 0, n * sizeof *a);
	return a;
}

/* Ghosts of every field from the parameters. */
static void ghosts(struct bsq_state *s, const struct bsq_params *p)
{
	int Tkind[BSQ_NFACE];
	bsq_bc_kinds_T(p, Tkind);
	bsq_bc_velocity(&s->g, s->u, s->v, s->w, p);
	bsq_bc_scalar(&s->g, s->T, Tkind, p->wall_T);
	bsq_mg_ghosts(&s->lev[0], BSQ_PHI);
}

/* The grid of p into s (zeroed first). */
static int shape(struct bsq_state *s, const struct bsq_params *p)
{
	int err;
	memset(s, 0, sizeof *s);
	if ((err = bsq_check(p)))
		return err;
	s->g.nx = p->nx;
	s->g.ny = p->ny;
	s->g.nz = p->nz;
	s->g.dx = p->lx / p->nx;
	s->g.dy = p->ly / p->ny;
	s->g.dz = p->lz / p->nz;
	s->n = bsq_count(&s->g);
	return 0;
}

int bsq_init_shape(struct bsq_state *s, const struct bsq_params *p)
{
	int err = shape(s, p);
	return err ? err : bsq_mg_build(s, p, 0);
}

int bsq_init(struct bsq_state *s, const struct bsq_params *p)
{
	int err, c;
	if ((err = shape(s, p)))
		return err;
	err = -SPATE_ENOMEM;
	if (!(s->u = field(s->n)) || !(s->v = field(s->n)) || !(s->w = field(s->n)) ||
		!(s->T = field(s->n)))
		goto fail;
	for (c = 0; c < 4; c++)
		if (!(s->F[c] = field(s->n)) || !(s->Fold[c] = field(s->n)))
			goto fail;
	if ((err = bsq_mg_build(s, p, 1)))
		goto fail;
	s->p = s->lev[0].v[BSQ_PHI];
	bsq_setup_fields(s, p);
	ghosts(s, p);
	return 0;
fail:
	spate_log_error("bsq", "%d x %d x %d cells: %s", p->nx, p->ny, p->nz,
		spate_strerror(err));
	bsq_free(s);
	return err;
}

void bsq_free(struct bsq_state *s)
{
	int c;
	free(s->u);
	free(s->v);
	free(s->w);
	free(s->T);
	for (c = 0; c < 4; c++) {
		free(s->F[c]);
		free(s->Fold[c]);
	}
	bsq_mg_free(s);
	memset(s, 0, sizeof *s);
}
