#include "ccharset.h"
#include <stdlib.h>
#include <string.h>
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>

int mo_charset_is_known(const char *label) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(label, &status);
    if (U_FAILURE(status) || converter == NULL) return 0;
    ucnv_close(converter);
    return 1;
}

typedef struct { int32_t count; } SubstitutionCounter;

static void count_substitutions(const void *context, UConverterToUnicodeArgs *args,
                                const char *codeUnits, int32_t length,
                                UConverterCallbackReason reason, UErrorCode *status) {
    if (reason == UCNV_ILLEGAL || reason == UCNV_UNASSIGNED || reason == UCNV_IRREGULAR) {
        ((SubstitutionCounter *)context)->count += length > 0 ? length : 1;
    }
    UCNV_TO_U_CALLBACK_SUBSTITUTE(NULL, args, codeUnits, length, reason, status);
}

int mo_charset_to_utf8(const char *label, const uint8_t *bytes, size_t length,
                       uint8_t **out, size_t *outLength, int32_t *substitutions) {
    *out = NULL;
    *outLength = 0;
    *substitutions = 0;
    UErrorCode status = U_ZERO_ERROR;
    UConverter *source = ucnv_open(label, &status);
    if (U_FAILURE(status) || source == NULL) return -1;
    UConverter *utf8 = ucnv_open("UTF-8", &status);
    if (U_FAILURE(status) || utf8 == NULL) { ucnv_close(source); return -2; }
    SubstitutionCounter counter = {0};
    ucnv_setToUCallBack(source, count_substitutions, &counter, NULL, NULL, &status);
    size_t capacity = length * 3 + 16;
    uint8_t *buffer = malloc(capacity);
    if (buffer == NULL) { ucnv_close(source); ucnv_close(utf8); return -2; }
    char *target = (char *)buffer;
    const char *input = (const char *)bytes;
    status = U_ZERO_ERROR;
    ucnv_convertEx(utf8, source, &target, (char *)buffer + capacity, &input, input + length,
                   NULL, NULL, NULL, NULL, 1, 1, &status);
    ucnv_close(source);
    ucnv_close(utf8);
    if (U_FAILURE(status)) { free(buffer); return -2; }
    *out = buffer;
    *outLength = (size_t)(target - (char *)buffer);
    *substitutions = counter.count;
    return 0;
}

int mo_charset_detect(const uint8_t *bytes, size_t length, char *name, size_t capacity,
                      int32_t *confidence) {
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status)) return -1;
    int32_t inputLength = length > 65536 ? 65536 : (int32_t)length;
    ucsdet_setText(detector, (const char *)bytes, inputLength, &status);
    const UCharsetMatch *match = ucsdet_detect(detector, &status);
    if (U_FAILURE(status) || match == NULL) { ucsdet_close(detector); return -1; }
    const char *found = ucsdet_getName(match, &status);
    *confidence = ucsdet_getConfidence(match, &status);
    if (U_FAILURE(status) || found == NULL) { ucsdet_close(detector); return -1; }
    strncpy(name, found, capacity - 1);
    name[capacity - 1] = 0;
    ucsdet_close(detector);
    return 0;
}

void mo_free(void *pointer) { free(pointer); }
