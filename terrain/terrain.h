/* terrain.h: rasters in (DEMs, initial depth or level grids) and the
 * conversion of a DEM to the solver's corner bed. */
#ifndef SPATE_TERRAIN_H
#define SPATE_TERRAIN_H

#include <stddef.h>

/* A north-up raster of cell-centred values, row 0 = southern row. */
struct terrain_grid {
	int nx, ny;
	double x0, y0;      /* lower-left corner of the lower-left cell, m */
	double dx, dy;      /* cell size, m (> 0) */
	double nodata;      /* the file's NODATA value (meaningful if has_nodata) */
	int has_nodata;
	int nan_count;      /* NaN values read (stored as NODATA) */
	double *v;          /* nx * ny values, v[j * nx + i]; NODATA cells hold NAN */
	char crs_wkt[8192]; /* coordinate reference system (WKT; GDAL's, or the .prj
	                       beside an ESRI ASCII grid), "" if unknown */
};

/* Largest grid accepted, in cells (a header that lies is refused early). */
#define TERRAIN_MAX_CELLS (1L << 32)

/* Read an ESRI ASCII grid (.asc; gzip-compressed when built with zlib), and
 * its CRS from a .prj file beside it if there is one (x.asc or x.asc.gz:
 * x.prj).  Validates the header (ncols, nrows > 0, cell size > 0, corner or centre
 * origin; a keyword given twice, or a corner with a centre, cellsize with dx
 * or dy, refused), the value count (a truncated file or extra values are errors) and
 * the values (NODATA and NaN become NAN in v).  Returns 0 or -SPATE_E* after
 * a message naming the file, line and what is wrong. */
int terrain_read_asc(const char *path, struct terrain_grid *g);

/* gdal.c: band 1 of any raster GDAL can open (GeoTIFF, ESRI ASCII,
 * /vsigzip/...).  Refuses rotated or south-up geotransforms.  When asc_ok and
 * GDAL finds an ESRI ASCII grid, reads no values: returns 1 with g->crs_wkt
 * the CRS GDAL found, for the strict reader.  Returns -SPATE_EUNSUPPORTED when
 * built without GDAL. */
int terrain_gdal_read(const char *path, struct terrain_grid *g, int asc_ok);

/* gdal.c: 0 when g's CRS is in metres (or g has none, or spate was built
 * without GDAL); -SPATE_EINVAL after a message naming path when it is
 * geographic (degrees) or projected in another unit (feet): the solver takes
 * the grid's cell size as metres. */
int terrain_crs_metres(const struct terrain_grid *g, const char *path);

/* asc.c: what a CRS in WKT (1, as ESRI's .prj files, or 2) says of its
 * units, read without GDAL: *geographic 1 for a geographic CRS (GEOGCS,
 * GEOGCRS, GEOGRAPHICCRS), else 0 and *metres the metres of the linear
 * unit of a projected one (PROJCS, PROJCRS, PROJECTEDCRS: its UNIT or
 * LENGTHUNIT, 1 when it names none), its name in unit; name: the CRS's own.
 * Returns 0, or -1 for a text it does not know (another kind of CRS, not
 * WKT): then it says nothing. */
int terrain_wkt_units(const char *wkt, int *geographic, double *metres, char *unit, size_t ulen,
	char *name, size_t nlen);
/* gdal.c: the refusal of a CRS whose unit is not the metre (path, the CRS's
 * name, degrees or the unit's name): -SPATE_EINVAL after a message. */
int terrain_crs_refuse(const char *path, const char *name, int geographic, const char *unit);

/* read.c: any raster GDAL can open, band 1 (terrain_gdal_read); an ESRI
 * ASCII grid the built-in reader can open goes to terrain_read_asc, with the
 * CRS GDAL found.  Returns -SPATE_EUNSUPPORTED when built without GDAL. */
int terrain_read_gdal(const char *path, struct terrain_grid *g);

/* read.c: read a raster: GDAL when built with it, else the ESRI ASCII reader. */
int terrain_read(const char *path, struct terrain_grid *g);

/* grid.c: free g's values (v = NULL). */
void terrain_free(struct terrain_grid *g);

/* Keep the cells whose whole area lies inside box = {xmin, ymin, xmax, ymax}. */
int terrain_crop(struct terrain_grid *g, const double box[4]);

/* Resample to square cells of size `cell` over the same extent: area mean of
 * the source cells when coarser (NODATA where less than half hold data),
 * bilinear when finer (NODATA next to NODATA). */
int terrain_resample(struct terrain_grid *g, double cell);

struct swe_state;
struct swe_params;

/* Read a raster named by the scenario (a data path: terrain_resolve; .gz
 * through /vsigzip/ with GDAL). */
int terrain_read_path(const struct swe_params *p, const char *path, struct terrain_grid *g);

/* Read a raster that must lie on the DEM's grid once cropped and resampled
 * as the DEM was ([domain] crop, cellsize); 0 or -SPATE_E* after a message. */
int terrain_read_on_grid(const struct swe_params *p, const char *path,
	const struct terrain_grid *dem, struct terrain_grid *g);

/* The state's forcing from the scenario: Manning raster (s->n2) and rain
 * rasters in time (s->rain, s->rain_t); forcing.c. */
int terrain_forcing(struct swe_state *s, const struct swe_params *p,
	const struct terrain_grid *dem);
/* Build the state of a [domain] setup = dem scenario: the DEM's grid, bed at
 * corners, NODATA as walls or masked, initial water from [initial].  Returns 0
 * or -SPATE_E* after a message. */
int terrain_setup(struct swe_state *s, const struct swe_params *p);

/* A data path as spate opens it: absolute as is; relative: under [domain]
 * data_dir when the file is there, else relative to the working directory. */
void terrain_resolve(const struct swe_params *p, const char *path, char *out, size_t n);

/* terrain_resolve, and a file there that can be read (GDAL's own names,
 * /vsi... or with a ':', are left to GDAL): 0, or -SPATE_EIO after a message
 * of part (such as "gauges") that says where it was looked for and how to
 * give its folder. */
int terrain_find(const struct swe_params *p, const char *part, const char *path, char *out,
	size_t n);

/* map.c: write g as a single-band Float32 GeoTIFF (its grid as the
 * geotransform, its CRS, NoData -9999 where v is NAN, units as the band's
 * unit unless NULL or "").  Returns 0 or -SPATE_E* after a message;
 * -SPATE_EUNSUPPORTED without GDAL. */
int terrain_write_geotiff(const char *path, const struct terrain_grid *g, const char *units);

#endif
