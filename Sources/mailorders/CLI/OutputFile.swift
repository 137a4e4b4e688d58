import Foundation

/// A report file named on the command line (`check --out`, `corpus --junit`), written whole
/// or not at all.
///
/// The file is written to a temporary file beside it and renamed over it, so a reader never
/// sees half a report. When the name is a symbolic link, the file it points to is written
/// and the link stays, as a shell's `>` writes through it: a CI job that links
/// `report.xml` to its artefacts folder keeps the link.
enum OutputFile {
    /// The most links followed, as Linux follows (`MAXSYMLINKS`, path_resolution(7)).
    static let maximumLinks = 40

    /// Writes `text` as UTF-8 to `path`, or to the file `path` links to.
    /// - Throws: the write's error; `ELOOP` as a POSIX error when more than ``maximumLinks``
    ///   links are followed.
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: try destination(of: path), atomically: true, encoding: .utf8)
    }

    /// The path a write to `path` lands on: `path` itself, or the end of its chain of
    /// symbolic links (a relative target is read from its link's folder). A link to a file
    /// that does not exist yet gives that file's path, where the file is then created.
    /// - Throws: `ELOOP` as a POSIX error after ``maximumLinks`` links.
    static func destination(of path: String) throws -> String {
        var current = path
        for _ in 0...maximumLinks {
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: current)
            current =
                target.hasPrefix("/")
                ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        throw POSIXError(.ELOOP)
    }
}
