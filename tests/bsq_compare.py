#!/usr/bin/env python3
"""bsq_compare.py: a Boussinesq run's outputs against the published numbers
(bsq_gpu_valid.sh runs it; standard library only).

  bsq_compare.py cavity PROFILES GHIA.csv LID SERIES
      u along z at x = 1/2 and w along x at z = 1/2 (profiles.csv, at the
      staggered samples' own points) interpolated linearly to the
      coordinates of Ghia, Ghia & Shin (or of another table in their file's
      format: line, coord, value), the walls' values (0, or LID on the lid
      z = 1) closing each line; every tabulated point within 0.01 LID.
  bsq_compare.py cube PROFILES AK.csv LID SERIES
      the cubic cavity at Re 1000 against Albensoeder & Kuhlmann (2005)
      in their file's unit-cube columns (std_line, std_coord, std_value:
      lid y = 1 moving +x, centrelines through x = 1/2 or y = 1/2 on the
      mid-plane z = 1/2).  spate's cube has the lid at z = 1 and the span
      in y, so their u(y) at x = z = 1/2 is u_along_z and their v(x) at
      y = z = 1/2 is w_along_x, both on spate's mid-plane y = 1/2.  The
      samples (cell centres, walls closing each line) are interpolated by
      the cubic through the four nearest (linear would add up to h^2/8
      |u''|, 0.005 U under the lid at 96^3); every tabulated point within
      0.01 LID.
  bsq_compare.py dhc PROFILES DEVAHL.csv RA SUMMARY SERIES
      the hot-wall mean Nusselt number of the summary within 1% of de Vahl
      Davis's, the largest u on x = 1/2 and the largest w on z = 1/2 (a
      parabola through the largest sample and its neighbours, as
      t_bsq_dhc.c) within 2%.  Velocities in kappa / L: the set-up's
      diffusive scaling (kappa = 1, L = 1) is de Vahl Davis's.

Each also asks that the run has settled: the kinetic energy of series.csv
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


def cubic(pts, x):
    """The cubic through the four samples nearest x (Lagrange form)."""
    k = min(range(len(pts)), key=lambda q: abs(pts[q][0] - x))
    lo = max(0, min(k - 1 if x >= pts[k][0] else k - 2, len(pts) - 4))
    near = pts[lo:lo + 4]
    if not near[0][0] <= x <= near[-1][0]:
        die("coordinate %g outside the profile [%g, %g]" % (x, pts[0][0], pts[-1][0]))
    got = 0.0
    for a, (xa, ya) in enumerate(near):
        w = ya
        for b, (xb, _) in enumerate(near):
            if b != a:
                w *= (x - xb) / (xa - xb)
        got += w
    return got


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


def centrelines(prof, ref, lid, series, table, interp):
    """Every point of table (reference line -> (coordinate, value) column
    names) against spate's u along z and w along x, walls closing them."""
    lid = float(lid)
    u = [(0.0, 0.0)] + profile(prof, "u_along_z") + [(1.0, lid)]
    w = [(0.0, 0.0)] + profile(prof, "w_along_x") + [(1.0, 0.0)]
    line, coord, value, names = table
    lines = {names[0]: u, names[1]: w}
    worst, where, n = 0.0, "", 0
    for r in rows(ref):
        if r.get(line) not in lines:
            continue
        try:
            x, want = float(r[coord]), float(r[value])
        except (KeyError, TypeError, ValueError):
            die("%s: a row of %s without a number in %s or %s" % (ref, r[line], coord, value))
        got = interp(lines[r[line]], x)
        dev = abs(got - want) / lid
        print("     %-30s %.4f  ref %9.5f  here %9.5f  dev %.5f" % (r[line], x, want, got,
                                                                   dev))
        n += 1
        if dev >= worst:
            worst, where = dev, "%s at %.4f" % (r[line], x)
    if n != 34:
        die("%s: %d points of the two centrelines (the table has 34, walls included)" %
            (ref, n))
    ok = worst <= 0.01
    print("%s %s: max deviation %.5f U over %d points (%s; at most 0.01 U)" %
          ("ok  " if ok else "FAIL", ref.rsplit("/", 1)[-1], worst, n, where))
    return steady(series) and ok


def cavity(prof, ref, lid, series):
    return centrelines(prof, ref, lid, series, ("line", "coord", "value",
                       ("vertical_u_vs_y_at_x0.5", "horizontal_v_vs_x_at_y0.5")), lerp)


def cube(prof, ref, lid, series):
    return centrelines(prof, ref, lid, series, ("std_line", "std_coord", "std_value",
                       ("vertical_u_vs_y_at_x0.5_z0.5", "horizontal_v_vs_x_at_y0.5_z0.5")),
                       cubic)


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
    if len(argv) == 6 and argv[1] == "cube":
        return 0 if cube(*argv[2:]) else 1
    if len(argv) == 7 and argv[1] == "dhc":
        return 0 if dhc(*argv[2:]) else 1
    die("usage: bsq_compare.py cavity PROFILES GHIA LID SERIES | "
        "cube PROFILES AK LID SERIES | dhc PROFILES DEVAHL RA SUMMARY SERIES")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
