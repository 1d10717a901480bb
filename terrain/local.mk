# terrain/local.mk: DEM input, resampling and initial-state rasterisation.
# terrain/ is the only code that includes gdal.h.
#
# No sources yet.  Add them to the library, GDAL-only files under the
# conditional, e.g.:
#   src_libspate_a_SOURCES += terrain/esri_ascii.c terrain/terrain.h
#   if HAVE_GDAL
#   src_libspate_a_SOURCES += terrain/dem_gdal.c
#   endif
