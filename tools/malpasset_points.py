"""tools/malpasset_points.py: the Malpasset observation points that
tools/get-malpasset writes as malpasset_observations.csv (the table and its
sources; the bed column comes from the mesh)."""
import csv
import io

# Published numbers, not in the mesh file: S6-S14 are gauges of the EDF-LNH
# 1/400 physical model (1964, at prototype scale: maximum level, front
# arrival time after the failure); P1-P17 are the police survey of high-water
# marks after the event (maximum level).  Sources per column below; the bed
# column is computed here from the mesh.
SRC_XY_S = ("li12242/NDG-FEM SWE2D/@swe2d_Malpasset_dambreak/swe2d_Malpasset_dambreak.m@371d634 "
            "(2-decimal CADAM-style coordinates); integer-rounded in TELEMAC examples/telemac2d/"
            "malpasset/user_fortran/utimp_telemac2d.f (ogoe/OpenTelemac@0e7a832) and "
            "doc/malpasset.tex v8p4 (tomsail/telemac-conda@25c6506), GPL-3.0")
SRC_LEVEL_S = ("TELEMAC v8p4 examples/telemac2d/malpasset/vnv_malpasset.py wd_obs list (level-bed) "
               "(tomsail/telemac-conda@25c6506), GPL-3.0; same values in li12242/NDG-FEM "
               "drawMaxGaugeDepth.m and barbagroup/geoclaw-landspill-paper malpasset_dam_break.py "
               "(citing Biscarini et al. 2016)")
GEOCLAW = ("as coded in barbagroup/geoclaw-landspill-paper repro-pack/postprocessing/"
           "malpasset_dam_break.py@6291f96")
BISCARINI = "Biscarini et al. 2016 (Water 8(11):545, CC-BY)"
SRC_ARRIVAL_S = "%s Table 4, %s (model_gauge_arv_exp)" % (BISCARINI, GEOCLAW)
NOTE_S = ("EDF-LNH 1/400 undistorted model (1964); TELEMAC calls it P%s; TELEMAC reference bed "
          "%s m -> max depth %s m")
SRC_XY_P = ("li12242/NDG-FEM SWE2D/@swe2d_Malpasset_dambreak/swe2d_Malpasset_dambreak.m@371d634 "
            "(2-decimal CADAM-style coordinates); Biscarini 2016 Table 3 agrees within 0.2 m "
            "except P8/P12/P14")
SRC_LEVEL_P = "%s Table 3, %s (field_gauge_obs_mx)" % (BISCARINI, GEOCLAW)
NOTE_P = ("police high-water mark (max water-surface elevation); no arrival time; %sbank from "
          "Biscarini 2016 Table 3 as transcribed by third parties, consistent with geometry "
          "(left = +y side looking down-valley)")
ALT_XY = "Biscarini 2016 / geoclaw-landspill-paper give (%s) instead (different transcription); "
# name, x, y, max level (m), arrival (s), TELEMAC's reference bed and max depth
GAUGES = [
    ("S6", "4947.46", "4289.71", "84.2", "10.2", "43.9", "40.3"),
    ("S7", "5717.3", "4407.61", "49.1", "102", "34.5", "14.6"),
    ("S8", "6775.14", "3869.23", "54.0", "182", "30.0", "24.0"),
    ("S9", "7128.2", "3162.0", "40.2", "263", "27.4", "12.8"),
    ("S10", "8585.3", "3443.08", "34.9", "404", "23.1", "11.8"),
    ("S11", "9674.97", "3085.89", "27.4", "600", "19.1", "8.3"),
    ("S12", "10939.15", "3044.78", "21.5", "845", "11.4", "10.1"),
    ("S13", "11724.37", "2810.41", "16.1", "972", "9.3", "6.8"),
    ("S14", "12723.7", "2485.08", "12.9", "1139", "7.5", "5.4"),
]
# name, x, y, max level (m), bank, other transcription of the position
POLICE = [
    ("P1", "4913.11", "4244.01", "79.15", "right", ""),
    ("P2", "5159.75", "4369.62", "87.2", "left", ""),
    ("P3", "5790.63", "4177.76", "54.9", "right", ""),
    ("P4", "5886.54", "4503.97", "64.7", "left", ""),
    ("P5", "6763.05", "3429.6", "51.1", "right", ""),
    ("P6", "6929.97", "3591.87", "43.75", "left", ""),
    ("P7", "7326.02", "2948.78", "44.35", "right", ""),
    ("P8", "7441.01", "3232.12", "38.6", "left", ALT_XY % "7451.0, 3232.1"),
    ("P9", "8735.94", "3264.61", "31.9", "right", ""),
    ("P10", "8628.6", "3604.63", "40.75", "left", ""),
    ("P11", "9761.13", "3480.36", "24.15", "left", ""),
    ("P12", "9800.0", "2414.79", "24.9", "right", ALT_XY % "9832.9, 2414.7"),
    ("P13", "10957.2", "2651.94", "17.25", "right",
     "x given as 10957 in NDG-FEM and 10957.2 in Biscarini 2016 (10957.2 used); "),
    ("P14", "11156.99", "3800.72", "20.7", "left", ALT_XY % "11115.7, 3800.7"),
    ("P15", "11689.05", "2592.36", "18.6", "right", ""),
    ("P16", "11626.05", "3406.8", "17.25", "left", ""),
    ("P17", "12333.72", "2269.74", "14.0", "right", ""),
]
COLUMNS = ["name", "x", "y", "kind", "observed_max_level_m", "observed_arrival_s", "bank",
           "bed_elev_large_mesh_m", "source_xy", "source_level", "source_arrival", "notes"]


def observations_csv(bed_at):
    """The CSV text (RFC 4180, CRLF).  bed_at(x, y) gives the bed at a point,
    None outside the mesh; a point outside raises ValueError."""
    rows = []
    for name, px, py, level, arrival, ref_bed, ref_depth in GAUGES:
        rows.append([name, px, py, "physical_model_gauge", level, arrival, "", None,
                     SRC_XY_S, SRC_LEVEL_S, SRC_ARRIVAL_S, NOTE_S % (name[1:], ref_bed, ref_depth)])
    for name, px, py, level, bank, alt in POLICE:
        rows.append([name, px, py, "police_survey", level, "", bank, None,
                     SRC_XY_P, SRC_LEVEL_P, "", NOTE_P % alt])
    for r in rows:
        zb = bed_at(float(r[1]), float(r[2]))
        if zb is None:
            raise ValueError("observation point %s (%s, %s) lies outside the mesh: not the "
                             "Malpasset mesh?" % (r[0], r[1], r[2]))
        r[7] = "%.2f" % zb
    out = io.StringIO()
    w = csv.writer(out)        # RFC 4180: quotes where needed, CRLF
    w.writerow(COLUMNS)
    w.writerows(rows)
    return out.getvalue()
