// syncfs(2) is declared only with _GNU_SOURCE, which Swift's Glibc module is not built with.
#define _GNU_SOURCE
#include <unistd.h>
#include "cfilesystem.h"

int mailorders_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}
