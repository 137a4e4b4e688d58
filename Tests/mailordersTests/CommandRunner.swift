import Foundation

/// Runs the built `mailorders` binary as a user would.
enum CommandRunner {
    /// `text` without the report a sanitizer prints at exit (LeakSanitizer's "Suppressions
    /// used:" block, under a line of dashes), so that tests can count the tool's own lines
    /// in builds with `--sanitize=address` too.
    static func withoutSanitizerReport(_ text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        if let start = lines.indices.first(where: {
            lines[$0].hasPrefix("-----") && $0 + 1 < lines.count
                && lines[$0 + 1].hasPrefix("Suppressions used:")
        }) {
            lines.removeSubrange(start...)
        }
        return lines.joined(separator: "\n")
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository's root folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `mailorders` executable beside the test bundle.
    static var executable: URL {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("mailorders"))
        candidates.append(bundle.appendingPathComponent("mailorders"))
        if let first = CommandLine.arguments.first {
            candidates.append(
                URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("mailorders"))
        }
        candidates.append(repository.appendingPathComponent(".build/debug/mailorders"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Starts the binary without waiting.
    static func start(_ arguments: [String], standardInput: Data? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repository
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput {
            input.fileHandleForWriting.write(standardInput)
        }
        try? input.fileHandleForWriting.close()
        return (process, out, err)
    }

    /// Runs the binary to the end and collects its output.
    static func run(_ arguments: [String], standardInput: Data? = nil) throws -> Output {
        let (process, out, err) = try start(arguments, standardInput: standardInput)
        // Read both pipes while the process runs so that neither fills up.
        let group = DispatchGroup()
        let buffers = Buffers()
        DispatchQueue.global().async(group: group) {
            buffers.setOut(out.fileHandleForReading.readDataToEndOfFile())
        }
        DispatchQueue.global().async(group: group) {
            buffers.setErr(err.fileHandleForReading.readDataToEndOfFile())
        }
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: buffers.out, as: UTF8.self),
            standardError: String(decoding: buffers.err, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mailorders-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

private final class Buffers: @unchecked Sendable {
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    var out: Data { lock.withLock { outData } }
    var err: Data { lock.withLock { errData } }
    func setOut(_ data: Data) { lock.withLock { outData = data } }
    func setErr(_ data: Data) { lock.withLock { errData = data } }
}
