#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

/// Flushes every file system buffer of the file system that holds the open file `fd` to
/// its device (Linux syncfs(2)); where that call does not exist, sync(2). Returns 0, or -1
/// with errno set.
int mailorders_syncfs(int fd);

#endif
