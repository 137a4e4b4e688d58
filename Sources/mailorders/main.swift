// mailorders: turns email into tracked orders. The command-line interface only: argument
// parsing, progress, output formats and exit codes; every stage lives in its own module.
import Foundation

#if canImport(Glibc)
    import CSystem
    import Glibc
#endif

#if os(Linux)
    // Every message is read into a fresh buffer of its size, and its text into others: with
    // glibc's defaults, buffers above 128 KiB are mapped and unmapped each time, a page fault
    // per 4 KiB touched (26,000 faults for a 10,000-message mailbox with one job, 69,000 with
    // two). Buffers up to 8 MiB are served from the heap instead, which keeps up to 32 MiB of
    // freed memory before returning it (8,000 and 16,000 faults).
    mallopt(M_MMAP_THRESHOLD, 8 << 20)
    mallopt(M_TRIM_THRESHOLD, 32 << 20)
#endif

let status = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
