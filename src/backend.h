/* backend.h: choosing a backend by name (--device) */
#ifndef SPATE_BACKEND_H
#define SPATE_BACKEND_H

#include "swe_backend.h"

/* Picks a backend by name ("auto", "cpu", "cuda"); returns NULL and prints why
 * when the name is unknown or the device is absent (auto never fails). */
const struct spate_backend *spate_backend_select(const char *name);

#endif
