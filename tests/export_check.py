# export_check.py RESULTS.nc DIR THRESHOLD NGAUGES: what spate export wrote
# in DIR from RESULTS.nc (tests/flood_maps.sh, tests/malpasset40.sh).
#  - the GeoPackage has the layers; flood_extent's polygons cover the wet
#    cells (max_depth > THRESHOLD, counted here from RESULTS.nc): their area
#    is the wet cell count x cell area within 0.1%;
#  - hazard_classes: each class's area is the count of its wet cells x cell
#    area (0.1%);
#  - arrival_isochrones: levels at multiples of one interval (none when every
#    wet cell was wet from the start);
#  - NGAUGES gauge points with the file's peak level, time and x;
#  - each COG: LAYOUT=COG (the COG driver's marker), DEFLATE, tiles of 128 or
#    more, overviews when the grid spans more than one 128 tile, NODATA
#    -9999 exactly where not wet, the file's values elsewhere; and, where
#    python3-gdal ships them, GDAL's own validators pass: osgeo_utils'
#    validate_cloud_optimized_geotiff (full check: IFDs, tile order and
#    offsets) on each COG, validate_gpkg (with extra checks, warnings as
#    errors) on the GeoPackage.
# Exit 1 on any failure; prints ok/FAIL lines.
import sys, numpy as np, xarray as xr
from osgeo import gdal, ogr
gdal.UseExceptions()
path, out, thr, ng = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
r = xr.open_dataset(path, decode_times=False)
cell = r.attrs["spate_dx"] * r.attrs["spate_dy"]
depth = r.max_depth.values
wet = np.nan_to_num(depth, nan=0) > thr
bad = 0
def check(ok, what):
    global bad
    print(("ok   " if ok else "FAIL ") + what)
    bad += not ok
try:
    from osgeo_utils.samples import validate_cloud_optimized_geotiff as vcog
    from osgeo_utils.samples import validate_gpkg as vgpkg
except ImportError:
    vcog = vgpkg = None
    print("# osgeo_utils validators not installed: LAYOUT=COG and ogr only")
if vgpkg:
    try:
        vgpkg.check(out + "/flood.gpkg", extra_checks=True, warning_as_error=True)
        check(True, "validate_gpkg: flood.gpkg follows the GeoPackage specification")
    except Exception as e:          # noqa: BLE001 (GPKGCheckException and its kin)
        check(False, "validate_gpkg: %s" % e)
ds = ogr.Open(out + "/flood.gpkg")
names = [ds.GetLayer(k).GetName() for k in range(ds.GetLayerCount())]
check({"flood_extent", "hazard_classes", "arrival_isochrones"} <= set(names),
      "GeoPackage layers %s" % names)
def areas(layer, field=None):
    a = {}
    for f in ds.GetLayerByName(layer):
        k = f.GetField(field) if field else 0
        a[k] = a.get(k, 0) + f.GetGeometryRef().GetArea()
    return a
a, want = areas("flood_extent").get(0, 0), wet.sum() * cell
check(want > 0 and abs(a - want) <= 1e-3 * want,
      "flood_extent %.1f m2 = %d wet cells x %g m2 (%.1f m2) within 0.1%%" %
      (a, wet.sum(), cell, want))
cls = np.nan_to_num(r.max_hazard_class.values, nan=0)
got = areas("hazard_classes", "class")
ok = all(abs(got.get(c, 0) - np.sum(wet & (cls == c)) * cell) <= 1e-3 * cell *
         max(1, np.sum(wet & (cls == c))) for c in range(1, 7))
check(ok and sum(got.values()) > 0, "hazard_classes: area of each class = its cells (%s)" %
      {k: round(v) for k, v in sorted(got.items())})
iso = ds.GetLayerByName("arrival_isochrones")
lv = sorted({f.GetField("arrival_s") for f in iso})
arr = r.arrival_time.values[wet]
spread = np.nanmax(arr) > np.nanmin(arr) + 1 if arr.size else False
check((len(lv) > 0 and all(abs(v / lv[0] - round(v / lv[0])) < 1e-9 for v in lv)) if spread
      else len(lv) == 0, "isochrones at multiples of one interval: %s%s" %
      (lv, "" if spread else " (every wet cell wet from the start: none)"))
if ng:
    gl = ds.GetLayerByName("gauges")
    pts = {f.GetField("name"): (f.GetField("peak_level_m"), f.GetField("peak_time_s"),
           f.GetGeometryRef().GetX()) for f in gl} if gl else {}
    names = [str(n) for n in r.gauge_name.values]
    def same(a, b):   # a null field where the file has no value (a dry gauge)
        return (a is None and np.isnan(b)) or (a is not None and abs(a - b) < 1e-9)
    ok = len(pts) == ng == len(names) and all(
        same(pts[n][0], r.gauge_max_level.values[k]) and
        same(pts[n][1], r.gauge_time_of_max_level.values[k]) and
        pts[n][2] == r.gauge_x.values[k] for k, n in enumerate(names))
    check(ok, "%d gauge points with the file's peak level and time" % len(pts))
for v in ("max_depth", "max_speed", "arrival_time", "duration_wet", "max_hazard_class"):
    t = gdal.Open("%s/%s.tif" % (out, v))
    md = t.GetMetadata("IMAGE_STRUCTURE")
    b = t.GetRasterBand(1)
    x = b.ReadAsArray()[::-1]          # row 0 south, as in the file
    nd = b.GetNoDataValue()
    f = r[v].values
    # a value where wet and the file has one (arrival: only past the
    # products' own wet threshold; classes: 1 and up)
    want = wet & ~np.isnan(f) & (f > 0 if v == "max_hazard_class" else True)
    same = np.allclose(x[want], f[want], rtol=0, atol=0)
    big = max(x.shape) > 128   # a grid in one 128-cell tile needs no overview
    if vcog:
        w, e, _ = vcog.validate(t, full_check=True)
        print("# %s.tif: validate_cloud_optimized_geotiff: %d errors %s, %d warnings %s" %
              (v, len(e), e, len(w), w))
    check(md.get("LAYOUT") == "COG" and md.get("COMPRESSION") == "DEFLATE" and
          b.GetBlockSize()[0] >= 128 and (b.GetOverviewCount() >= 1 or not big) and
          nd == -9999 and np.array_equal(x != nd, want) and same and
          (vcog is None or not vcog.validate(t, full_check=True)[1]),
          "%s.tif: LAYOUT=COG, DEFLATE, tiles %s, %d overviews, the file's values where "
          "wet, NODATA elsewhere" %
          (v, b.GetBlockSize(), b.GetOverviewCount()))
sys.exit(1 if bad else 0)
