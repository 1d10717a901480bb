/* fuzz_file.h: the fuzz targets' readers take paths: the input written to a
 * file of a private folder under $TMPDIR (or /tmp), and spate's messages on
 * stderr sent to /dev/null (sanitizer and libFuzzer reports go to fd 2, and
 * stay).  Returns the file's path, or NULL. */
#ifndef SPATE_FUZZ_FILE_H
#define SPATE_FUZZ_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	static char dir[512], path[600];
	FILE *f;
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/spate-fuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			return NULL;
		snprintf(path, sizeof path, "%s/%s", dir, name);
		stderr = fopen("/dev/null", "w");
	}
	f = fopen(path, "wb");
	if (!f)
		return NULL;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return NULL;
	}
	return fclose(f) ? NULL : path;
}

#endif
