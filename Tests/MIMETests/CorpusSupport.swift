import Foundation

/// Paths of the public corpora in `<repo>/../shared/corpora`.
enum Corpora {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpora/mime")

    /// Every single-message file of the corpora: `.eml`, `.msg` and Maildir files.
    static func messageFiles() -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator {
            let path = url.path
            let isMaildir = path.contains("/maildir/") && (path.contains("/cur/") || path.contains("/new/"))
            if url.pathExtension == "eml" || url.pathExtension == "msg" || isMaildir {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
