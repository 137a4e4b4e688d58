#ifndef CCHARSET_H
#define CCHARSET_H
// Charset conversion and detection through the system ICU, behind C types only:
// Foundation bundles its own ICU, and a Swift module that sees both fails to build.
#include <stddef.h>
#include <stdint.h>

/// Converts `length` bytes in the charset named `label` to UTF-8.
/// On success returns 0 and stores a malloc'd buffer (free with `mo_free`) in `*out`
/// and its length in `*outLength`; `*substitutions` counts bytes that could not be
/// converted. Returns -1 when ICU does not know the label, -2 on other failures.
int mo_charset_to_utf8(const char *label, const uint8_t *bytes, size_t length,
                       uint8_t **out, size_t *outLength, int32_t *substitutions);

/// Guesses the charset of `length` bytes with ICU's charset detector.
/// Writes the ICU name (NUL-terminated) into `name` (capacity `capacity`) and the
/// confidence 0–100 into `*confidence`. Returns 0 on success, -1 when nothing matched.
int mo_charset_detect(const uint8_t *bytes, size_t length, char *name, size_t capacity,
                      int32_t *confidence);

/// Returns 1 when ICU knows the charset label, else 0.
int mo_charset_is_known(const char *label);

void mo_free(void *pointer);

#endif
