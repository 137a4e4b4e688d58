// Declarations of C library calls that Swift's Glibc module leaves out (they need
// _GNU_SOURCE). Nothing is compiled here: the calls are glibc's own.
#if defined(__linux__)
/// syncfs(2): flushes every buffer of the file system that holds the open file `fd`.
/// Returns 0, or -1 with errno set.
extern int syncfs(int fd);
#endif
