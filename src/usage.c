/* usage.c: the options of each command (usage.h), one text each, lines of
 * "  --option   what it does" as spate --help and spate COMMAND --help
 * print them; man/spate.1.in says the same at length (tests/man_keys.sh
 * checks that it names every option here). */
#include "usage.h"

const char spate_opts_run[] =
"  --SECTION.KEY=VALUE      override a scenario key, e.g. --physics.manning=0.03\n"
"  --device=auto|cpu|cuda   where to run (default auto: a GPU if there is one)\n"
"  --data-dir=DIR           where relative data paths (DEMs) are looked up\n"
"                           (default: $SPATE_DATA, else ../shared/data)\n"
"  --summary FILE           write a JSON run summary (FILE '-' = stdout)\n"
"  --print-params           print the resolved parameters and exit\n"
"  --no-output              write no files (timing runs)\n"
"  --checkpoint-every=S     write a checkpoint every S seconds of simulated\n"
"                           time (also [output] checkpoint_every); SIGINT and\n"
"                           SIGTERM write one too, then stop\n"
"  --restart=FILE           continue from a checkpoint (checkpoint.nc or .bin)\n"
"                           of the same scenario, bitwise as if never stopped\n"
"  --parallel.subdomains=N  cut the grid into N subdomains of rows (also\n"
"                           --parallel.workload=60,40; with --device=cuda\n"
"                           subdomain k on GPU k mod GPUs); under mpirun rank 0\n"
"                           writes, and a report per subdomain ends the run\n"
"  --quiet, -q              no progress line or log on stderr\n";

const char spate_opts_bench[] =
"  --physics=shallow_water|boussinesq  which module's steps to time\n"
"  --device=auto|cpu|cuda   device to time (default auto)\n"
"  --sizes=N,NXxNY,...      grid sizes (default 1024,2048,4096,8192; for\n"
"                           boussinesq NXxNYxNZ,..., default 64x8x64)\n"
"  --steps=N                timed steps per size (default: about 2 s of work)\n"
"  --seconds=S              timed seconds per size without --steps (default 2)\n"
"  --subdomains=N           N subdomains of rows (on GPUs: over the GPUs)\n"
"  --gpus=N                 use at most N GPUs (default all)\n"
"  --overlap=none,compute,streams  halo-overlap strategies to time (default\n"
"                           streams)\n"
"  --transport=auto|mpi|nccl  halos between ranks' GPUs under mpirun: host-\n"
"                           staged MPI or GPU to GPU by NCCL (default auto)\n"
"  --case=cavity|rayleigh_benard|vcycle  boussinesq: the flow to time, or V-cycles alone\n"
"  --pressure=multigrid,jacobi  boussinesq: pressure solvers to time\n"
"  --tol=X                  boussinesq: pressure solver tolerance (default 1e-8)\n";

const char spate_opts_map[] =
"  --var=NAME               the variable (default max_depth; also max_speed,\n"
"                           max_hazard, arrival_time, time_of_max_depth,\n"
"                           duration_wet, a class variable such as\n"
"                           max_hazard_class, bed, h, w, u, v)\n"
"  -o FILE, --output=FILE   FILE.tif: GeoTIFF with the DEM's CRS and grid;\n"
"                           FILE.png or FILE.pdf: a printed map (Cairo):\n"
"                           hillshade, colours or classes with a legend, flood\n"
"                           extent, gauges, scale bar, north arrow, title\n"
"  --format=tif|png|pdf     the output's kind when FILE's extension does not\n"
"                           say it\n"
"  --time=T                 snapshot nearest to T seconds (default: the last)\n"
"  --page=a4|a3|letter      paper size (default a4; landscape or portrait,\n"
"                           whichever gives the map more room)\n"
"  --dpi=N                  PNG resolution in dots per inch (default 150: an A4\n"
"                           page is 1754 x 1240 pixels)\n"
"  --extent=D               flood-extent outline at depth D m (default: the\n"
"                           file's wet threshold; 0: no outline)\n"
"  --title=TEXT             the title (default: set-up, DEM and variable)\n"
"  --quiet, -q              no log on stderr\n";

const char spate_opts_ensemble[] =
"  --vary SECTION.KEY=LO:HI  vary a key with a real value from LO to HI (LO = HI:\n"
"                           fixed), e.g. physics.manning=0.02:0.06,\n"
"                           boundary.inflow_scale=0.8:1.2; at most 16; keys of\n"
"                           [initial], [physics], [boundary] and [run]\n"
"  --members=N              members to run (1 to 100000; required)\n"
"  --sampling=lhs|grid|random  Latin hypercube (default), a grid of m levels\n"
"                           per key (N = m^keys), or uniform random values\n"
"  --seed=S                 seed of lhs and random (default 1)\n"
"  --percentiles=P,...      whole percentiles of the maximum depth (default\n"
"                           10,50,90; none: no percentiles, less memory)\n"
"  --threshold=M            the wet threshold in m (= --output.threshold=M)\n"
"  --out=DIR                output folder (= --output.dir=DIR)\n"
"  --keep-members           also write each member's results in DIR/member_NNN/\n"
"  --print-members          print the members' values (members.csv) and stop\n"
"  --no-cog                 write no Cloud Optimized GeoTIFFs\n"
"  --device=auto|cpu|cuda, --data-dir=DIR, --SECTION.KEY=VALUE, --quiet\n"
"                           as for spate run; overrides apply to every member\n"
"Writes DIR/ensemble.nc (flood_probability, max_depth_pNN, arrival_time_min,\n"
"arrival_time_mean, the members' values as a table), DIR/NAME.tif (COGs) or\n"
"DIR/NAME.asc ([output] format) and DIR/members.csv.  Exit status: 0 success,\n"
"1 bad usage or input, 2 failure while running, 3 stopped by a signal.\n";

const char spate_opts_export[] =
"  --format=gpkg|cog|all    what to write (default all): gpkg = DIR/flood.gpkg\n"
"                           (flood_extent and hazard_classes polygons,\n"
"                           arrival_isochrones lines, gauges points); cog =\n"
"                           DIR/PRODUCT.tif Cloud Optimized GeoTIFFs of the\n"
"                           flood products (NODATA where never wet)\n"
"  --out=DIR                output folder (default: the folder of RESULT.nc)\n"
"  --depth-threshold=M      a cell is wet where max_depth > M metres (default\n"
"                           0.01 m): the extent and the COGs' NODATA\n"
"  --interval=S             seconds between arrival isochrones (default: a\n"
"                           round number giving about ten)\n"
"  --quiet, -q              no summary\n"
"Needs GDAL (GPKG and COG drivers) and NetCDF.\n";
