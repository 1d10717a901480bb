/* setup.h: the initial state of a flood run: built-in set-ups or a DEM */
#ifndef SPATE_SETUP_H
#define SPATE_SETUP_H

#include "swe.h"

/* Allocate and fill the state of a built-in set-up. */
int swe_setup_builtin(struct swe_state *s, const struct swe_params *p);
/* Thacker's radially symmetric bowl (setup thacker_bowl, setup.c): bed *B
 * and exact depth *h at (x, y) and time t in a domain Lx x Ly, h0 deep. */
void swe_thacker_bowl(double x, double y, double Lx, double Ly, double h0, double t, double g,
	double *B, double *h);
/* The state of any set-up: built-in, or from a DEM (terrain_setup). */
int swe_setup(struct swe_state *s, const struct swe_params *p);
struct swe_coef swe_coef_of(const struct swe_params *p);
/* The desingularisation depth and dry tolerance of p on the initial state s
 * (p's own where set, else auto: setup.c), m. */
double swe_kappa_of(const struct swe_params *p, const struct swe_state *s);
double swe_dry_of(const struct swe_params *p, double kappa);
/* p->kappa and p->dry_tol resolved so (a run does it after its set-up). */
void swe_params_resolve(struct swe_params *p, const struct swe_state *s);

#endif
