// Declarations of C library calls that Swift's Glibc module leaves out. Nothing is compiled
// here: the calls are glibc's own.
#if defined(__linux__)
#include <malloc.h>
#include <stddef.h>

/// memmem(3): the first occurrence of the `needlelen` bytes at `needle` in the `haystacklen`
/// bytes at `haystack`, or NULL. (Declared by <string.h> only with _GNU_SOURCE.)
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

/// syncfs(2): flushes every buffer of the file system that holds the open file `fd`.
/// Returns 0, or -1 with errno set. (Declared by <unistd.h> only with _GNU_SOURCE.)
extern int syncfs(int fd);

/// renameat2(2) (glibc 2.28, Linux 3.15): rename with flags. Returns 0, or -1 with errno set;
/// EINVAL where the file system does not support the flag. (Declared by <stdio.h> only with
/// _GNU_SOURCE.)
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// renameat2's flag that swaps the two paths atomically; both must exist (<linux/fs.h>).
static const unsigned int mailorders_RENAME_EXCHANGE = 1 << 1;
#endif
