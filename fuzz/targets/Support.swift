import Foundation

/// Calls `body` with the fuzz input as a byte array.
func withInput(_ data: UnsafePointer<UInt8>?, _ size: Int, _ body: ([UInt8]) -> Void) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    body(bytes)
    return 0
}

/// A per-process scratch file for parsers that read from a path.
let scratchDirectory: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("mailorders-fuzz-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// The repository's `rules/` folder (the binary lives in `fuzz/out/bin/`), or `$MAILORDERS_RULES`.
let rulesDirectory: URL = {
    if let path = ProcessInfo.processInfo.environment["MAILORDERS_RULES"] {
        return URL(fileURLWithPath: path)
    }
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("../../../rules").standardized
}()

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never) func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
