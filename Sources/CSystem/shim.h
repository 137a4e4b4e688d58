// Declarations of C library calls that Swift's Glibc module leaves out. Nothing is compiled
// here: the calls are glibc's own.
#if defined(__linux__)
#include <malloc.h>

/// syncfs(2): flushes every buffer of the file system that holds the open file `fd`.
/// Returns 0, or -1 with errno set. (Declared by <unistd.h> only with _GNU_SOURCE.)
extern int syncfs(int fd);
#endif
