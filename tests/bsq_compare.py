#!/usr/bin/env python3
"""bsq_compare.py: a Boussinesq run's outputs against the published numbers
(bsq_gpu_valid.sh runs it; standard library only).

  bsq_compare.py cavity PROFILES GHIA.csv LID SERIES
      u along z at x = 1/2 and w along x at z = 1/2 (profiles.csv, at the
      staggered samples' own points) interpolated linearly to the
      coordinates of Ghia, Ghia & Shin (or of another table in their file's
      format: line, coord, value), the walls' values (0, or LID on the lid
      z = 1) closing each line; every tabulated point within 0.01 LID.
  bsq_compare.py dhc PROFILES DEVAHL.csv RA SUMMARY SERIES
      the hot-wall mean Nusselt number of the summary within 1% of de Vahl
      Davis's, the largest u on x = 1/2 and the largest w on z = 1/2 (a
      parabola through the largest sample and its neighbours, as
      t_bsq_dhc.c) within 2%.  Velocities in kappa / L: the set-up's
      diffusive scaling (kappa = 1, L = 1) is de Vahl Davis's.

Both also ask that the run has settled: the kinetic energy of series.csv
over the last tenth of the run changes by at most STEADY (5e-3) of itself.
Prints a line per point or quantity and the worst; exits 0 when all hold,
1 when one does not, 2 on unreadable input (with what is wrong)."""
import csv
import json
import sys

STEADY = 5e-3


def die(msg):
    print("bsq_compare.py: " + msg, file=sys.stderr)
    sys.exit(2)


def rows(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))


def profile(path, line):
    """(coordinate, value) pairs of one line of profiles.csv, in order."""
    pts = sorted((float(r["coordinate"]), float(r["value"]))
                 for r in rows(path) if r["line"] == line)
    if len(pts) < 3:
        die("%s: %d samples of %s (need 3 or more)" % (path, len(pts), line))
    return pts


def lerp(pts, x):
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            return y0 + (x - x0) / (x1 - x0) * (y1 - y0)
    die("coordinate %g outside the profile [%g, %g]" % (x, pts[0][0], pts[-1][0]))


def steady(series):
    """Relative change of the kinetic energy over the last tenth of the run."""
    r = rows(series)
    if len(r) < 2:
        die("%s: %d rows (need 2 or more)" % (series, len(r)))
    t = [float(x["t"]) for x in r]
    e = [float(x["energy"]) for x in r]
    t0 = t[0] + 0.9 * (t[-1] - t[0])
    i = max(k for k in range(len(t) - 1) if k == 0 or t[k] <= t0)
    rel = abs(e[-1] - e[i]) / max(abs(e[-1]), 1e-300)
    ok = rel <= STEADY
    print("%s steady: kinetic energy %.6e at t = %.4g, %.6e at t = %.4g: change %.2e "
          "(at most %.0e)" % ("ok  " if ok else "FAIL", e[i], t[i], e[-1], t[-1], rel,
                              STEADY))
    return ok


def cavity(prof, ref, lid, series):
    lid = float(lid)
    u = [(0.0, 0.0)] + profile(prof, "u_along_z") + [(1.0, lid)]
    w = [(0.0, 0.0)] + profile(prof, "w_along_x") + [(1.0, 0.0)]
    lines = {"vertical_u_vs_y_at_x0.5": u, "horizontal_v_vs_x_at_y0.5": w}
    worst, where, n = 0.0, "", 0
    for r in rows(ref):
        if r["line"] not in lines:
            continue
        x, want = float(r["coord"]), float(r["value"])
        got = lerp(lines[r["line"]], x)
        dev = abs(got - want) / lid
        print("     %-26s %.4f  ref %9.5f  here %9.5f  dev %.5f" % (r["line"], x, want, got,
                                                                   dev))
        n += 1
        if dev >= worst:
            worst, where = dev, "%s at %.4f" % (r["line"], x)
    if n != 34:
        die("%s: %d points of the two centrelines (Ghia tabulates 34)" % (ref, n))
    ok = worst <= 0.01
    print("%s %s: max deviation %.5f U over %d points (%s; at most 0.01 U)" %
          ("ok  " if ok else "FAIL", ref.rsplit("/", 1)[-1], worst, n, where))
    return steady(series) and ok


def peak(pts):
    """Largest value, through a parabola on the largest sample and its
    neighbours (equally spaced samples)."""
    v = [y for _, y in pts]
    m = max(range(len(v)), key=lambda k: v[k])
    if m == 0 or m == len(v) - 1:
        return v[m]
    l, c, r = v[m - 1], v[m], v[m + 1]
    den = l - 2 * c + r
    return c - (r - l) * (r - l) / (8 * den) if den < 0 else c


def dhc(prof, ref, ra, summary, series):
    want = {}
    for r in rows(ref):
        if r["Ra"] == ra and r["Pr"] == "0.71":
            want[r["quantity"]] = float(r["value"])
    try:
        with open(summary) as f:
            nu = float(json.load(f)["nusselt"])
    except (OSError, ValueError, KeyError) as e:
        die("%s: no Nusselt number (%s)" % (summary, e))
    got = {"Nu_avg_hot_wall": (nu, 0.01),
           "u_max_on_vertical_centreline_x0.5": (peak(profile(prof, "u_along_z")), 0.02),
           "v_max_on_horizontal_centreline_y0.5": (peak(profile(prof, "w_along_x")), 0.02)}
    ok = True
    for q, (value, tol) in got.items():
        if q not in want:
            die("%s: no %s at Ra = %s, Pr = 0.71" % (ref, q, ra))
        rel = value / want[q] - 1
        good = abs(rel) <= tol
        ok = ok and good
        print("%s de Vahl Davis Ra %s: %-36s %9.4f against %9.4f: %+.2f%% (at most %.0f%%)" %
              ("ok  " if good else "FAIL", ra, q, value, want[q], 100 * rel, 100 * tol))
    return steady(series) and ok


def main(argv):
    if len(argv) == 6 and argv[1] == "cavity":
        return 0 if cavity(*argv[2:]) else 1
    if len(argv) == 7 and argv[1] == "dhc":
        return 0 if dhc(*argv[2:]) else 1
    die("usage: bsq_compare.py cavity PROFILES GHIA LID SERIES | "
        "dhc PROFILES DEVAHL RA SUMMARY SERIES")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
