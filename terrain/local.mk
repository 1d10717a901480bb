# terrain/local.mk: DEM input and initial-state rasterisation.
# terrain/ is the only code that includes gdal.h (terrain/gdal.c, which
# compiles to a stub that says so when GDAL is absent).
src_libspate_a_SOURCES += terrain/grid.c terrain/asc.c terrain/gdal.c terrain/read.c \
	terrain/init.c terrain/path.c terrain/resample.c terrain/forcing.c terrain/map.c \
	terrain/cog.c terrain/gpkg.c
noinst_HEADERS += terrain/terrain.h terrain/cog.h terrain/gpkg.h terrain/gdalmem.h
