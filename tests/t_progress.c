/* t_progress.c: the progress line (progress.c) in a log, where standard
 * error is a file, as in a batch job's output.
 *
 * - a run whose last tick printed the final state (more than a second
 *   since the line before) ends without printing that line twice: it did,
 *   one line for the tick and one for the end;
 * - a run whose last tick was steps before the end prints the end's line;
 * - a run shorter than a second prints none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "spate.h"
#include "progress.h"

static char path[] = "/tmp/t_progress.XXXXXX";

/* The lines written on stderr since the last call. */
static int lines_since(long *pos)
{
	FILE *f;
	int c, n = 0;
	fflush(stderr);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, *pos, SEEK_SET);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	*pos = ftell(f);
	fclose(f);
	return n;
}

/* A run from t = 0 to 10 s of 100 cells: a tick at `tick_steps` (forced:
 * the last line more than a second ago), the end at `end_steps`. */
static int run(long tick_steps, long end_steps, int tick, long *pos)
{
	struct spate_progress p;
	spate_progress_start(&p, 0, 0, 10, 100);
	if (tick) {
		p.last -= 2;
		spate_progress_tick(&p, (double)tick_steps, tick_steps, 0.5);
	}
	spate_progress_end(&p, 10, end_steps, 0.5, NULL);
	return lines_since(pos);
}

static void test_lines(void **st)
{
	long pos = 0;
	(void)st;
	assert_int_equal(run(10, 10, 1, &pos), 1);   /* the last tick is the end */
	assert_int_equal(run(8, 10, 1, &pos), 2);    /* a tick, then the end */
	assert_int_equal(run(0, 10, 0, &pos), 0);    /* under a second: none */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
	};
	int fd = mkstemp(path), rc;
	if (fd < 0 || !freopen(path, "w", stderr))
		return 99;
	close(fd);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
