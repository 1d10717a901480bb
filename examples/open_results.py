#!/usr/bin/env python3
"""examples/open_results.py: open spate's results from Python.

Usage:
  python3 examples/open_results.py RESULTS.nc [FLOOD.gpkg]

Opens RESULTS.nc (the [output] file of `spate run`) with xarray and prints
its variables, its snapshot times and the maximum depth, with where and
when it was reached; with FLOOD.gpkg (a GeoPackage, e.g. from
`spate export`) it lists the layers with their feature counts through GDAL's
OGR.  Needs python3-xarray and python3-netcdf4; the GeoPackage needs
python3-gdal.  Exit status 0, 1 for bad usage, 2 when a file cannot be read.
"""
import os
import sys


def when(v):
    """A time as text: CF times ("seconds since ...") decode to datetimes
    (or durations), plain seconds stay numbers."""
    import numpy as np

    v = np.asarray(v)
    if np.issubdtype(v.dtype, np.datetime64):
        return str(v.astype("datetime64[s]"))
    if np.issubdtype(v.dtype, np.timedelta64):
        return "%g s" % (v / np.timedelta64(1, "s"))
    return "%g s" % v


def describe_netcdf(path):
    import numpy as np
    import xarray as xr

    with xr.open_dataset(path) as ds:
        print("%s: %s" % (path, ds.attrs.get("title", "spate results")))
        print("dimensions: %s" % ", ".join("%s=%d" % kv for kv in ds.sizes.items()))
        print("variables:")
        for name, v in ds.data_vars.items():
            print("  %-18s (%s) %s [%s]" % (name, ", ".join(v.dims),
                                            v.attrs.get("long_name", ""),
                                            v.attrs.get("units", "")))
        if "time" in ds.coords:
            t = ds["time"].values
            print("times: %d snapshot%s: %s" % (len(t), "" if len(t) == 1 else "s",
                                                ", ".join(when(x) for x in t)))
        if "max_depth" in ds:
            depth, what = ds["max_depth"], "max_depth"
        elif "h" in ds:
            depth, what = ds["h"].max("time") if "time" in ds["h"].dims else ds["h"], "h"
        else:
            print("max depth: no max_depth or h variable")
            return
        d = depth.values
        if not np.isfinite(d).any():
            print("max depth: no finite value in %s" % what)
            return
        j, i = np.unravel_index(np.nanargmax(d), d.shape)
        at = ""
        if "x" in depth.coords and "y" in depth.coords:
            at = " at x = %g m, y = %g m" % (float(depth["x"][i]), float(depth["y"][j]))
        print("max depth: %.4f m%s (from %s)" % (float(d[j, i]), at, what))
        if "time_of_max_depth" in ds:
            print("reached at: %s" % when(ds["time_of_max_depth"].values[j, i]))


def describe_gpkg(path):
    from osgeo import ogr

    ogr.UseExceptions()
    src = ogr.Open(path)
    print("%s: %d layer%s" % (path, src.GetLayerCount(), "" if src.GetLayerCount() == 1
                              else "s"))
    for k in range(src.GetLayerCount()):
        lay = src.GetLayerByIndex(k)
        srs = lay.GetSpatialRef()
        print("  %-20s %6d features  %-16s %s" % (
            lay.GetName(), lay.GetFeatureCount(), ogr.GeometryTypeToName(lay.GetGeomType()),
            srs.GetName() if srs is not None else "no CRS"))


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) not in (1, 2):
        print("open_results.py: expected RESULTS.nc [FLOOD.gpkg] (see --help)", file=sys.stderr)
        return 1
    for p in argv:
        if not os.path.isfile(p):
            print("open_results.py: %s: no such file" % p, file=sys.stderr)
            return 2
    try:
        import xarray  # noqa: F401
    except ImportError:
        print("open_results.py: needs xarray and netCDF4 (Debian: apt-get install "
              "python3-xarray python3-netcdf4)", file=sys.stderr)
        return 2
    try:
        describe_netcdf(argv[0])
    except (OSError, ValueError) as e:
        print("open_results.py: %s: cannot read it as NetCDF: %s" % (argv[0], e),
              file=sys.stderr)
        return 2
    if len(argv) == 2:
        try:
            describe_gpkg(argv[1])
        except ImportError:
            print("open_results.py: the GeoPackage needs GDAL's Python bindings (Debian: "
                  "apt-get install python3-gdal)", file=sys.stderr)
            return 2
        except RuntimeError as e:
            print("open_results.py: %s: cannot open it with OGR: %s" % (argv[1], e),
                  file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
