# tools/local.mk: scripts (set-up, demo, benchmarks); distributed, not installed.

EXTRA_DIST += tools/setup tools/bench tools/bench-scaling tools/demo tools/balance-bound \
	tools/link-cycles tools/check-sanitized tools/check-bsq-single tools/cf-check \
	tools/get-malpasset tools/malpasset_points.py tools/validate-malpasset
