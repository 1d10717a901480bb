/* params_print.c: the resolved flood parameters written back as a scenario
 * file (INI text that swe_params_load reads back to the same values). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "params_keys.h"

/* The value of table key k in p, and the newline. */
static void print_value(FILE *f, const struct key *k, const struct swe_params *p)
{
	const char *field = (const char *)p + k->off;
	switch (k->type) {
	case K_INT:
		if (k->choices && *(const int *)field == 0)
			fprintf(f, "%s\n", k->choices);
		else
			fprintf(f, "%d\n", *(const int *)field);
		break;
	case K_LONG: fprintf(f, "%ld\n", *(const long *)field); break;
	case K_DBL:
		if (isnan(*(const double *)field))
			fprintf(f, "\n");
		else
			fprintf(f, "%.17g\n", *(const double *)field);
		break;
	case K_STR: fprintf(f, "%s\n", field); break;
	default: {
		int c = *(const int *)field - (strcmp(k->key, "integrator") == 0);
		const char *s = k->choices;
		while (c-- > 0 && strchr(s, '|'))
			s = strchr(s, '|') + 1;
		fprintf(f, "%.*s\n", (int)strcspn(s, "|"), s);
	}
	}
}

/* [boundary]: the sides, their levels and hydrographs, and the factor on
 * the hydrographs where a side is an inflow. */
static void print_boundary(FILE *f, const struct swe_params *p)
{
	static const char *const kinds[] = { "wall", "outflow", "level", "inflow" };
	int inflow = 0;
	fprintf(f, "\n[boundary]\n");
	for (int s = 0; s < 4; s++) {
		fprintf(f, "%s = %s\n", swe_side_names[s], kinds[p->bc[s].kind]);
		if (p->bc[s].kind == SWE_BC_LEVEL)
			fprintf(f, "%s_level = %.17g\n", swe_side_names[s], p->bc[s].level);
		if (p->bc[s].kind == SWE_BC_INFLOW) {
			inflow = 1;
			fprintf(f, "%s_discharge = %s\n%s_hydrograph =", swe_side_names[s],
				p->bc[s].total ? "total" : "width", swe_side_names[s]);
			for (int j = 0; j < p->bc[s].n; j++)
				fprintf(f, "%s %.17g %.17g", j ? "," : "", p->bc[s].t[j], p->bc[s].q[j]);
			fputc('\n', f);
		}
	}
	if (inflow)
		fprintf(f, "inflow_scale = %.17g\n", p->inflow_scale);
}

void swe_params_print(const struct swe_params *p, void *file)
{
	FILE *f = file;
	const char *last = "";
	for (size_t i = 0; i < swe_param_nkeys; i++) {
		const struct key *k = &swe_param_keys[i];
		const char *field = (const char *)p + k->off;
		if (strcmp(last, k->sec) != 0) {
			if (strcmp(last, "initial") == 0 && p->has_reservoir)
				fprintf(f, "reservoir_line = %.17g %.17g %.17g %.17g\n",
					p->reservoir_line[0], p->reservoir_line[1], p->reservoir_line[2],
					p->reservoir_line[3]);
			if (strcmp(last, "initial") == 0 && p->has_dry_disk)
				fprintf(f, "dry_disk = %.17g %.17g %.17g\n", p->dry_disk[0], p->dry_disk[1],
					p->dry_disk[2]);
			fprintf(f, "%s[%s]\n", i ? "\n" : "", k->sec);
		}
		last = k->sec;
		/* unset keys (empty text, no number) and those of other set-ups stay
		 * out, so the output reads back */
		if (!((k->type == K_STR && !*field) || (k->type == K_DBL &&
			isnan(*(const double *)field)) || !swe_key_used(p, k->sec, k->key))) {
			fprintf(f, "%s = ", k->key);
			print_value(f, k, p);
		}
		if (strcmp(k->sec, "physics") == 0 && strcmp(k->key, "integrator") == 0)
			print_boundary(f, p);
		if (strcmp(k->sec, "parallel") == 0 && strcmp(k->key, "subdomains") == 0 &&
			p->nworkload > 0) {
			fprintf(f, "workload =");
			for (int j = 0; j < p->nworkload; j++)
				fprintf(f, "%s%.17g", j ? "," : " ", p->workload[j]);
			fputc('\n', f);
		}
	}
}
