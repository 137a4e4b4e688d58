import Foundation

/// A rules file that could not be read: which file, where in it, and why.
public struct RulesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line, when the decoder reported one.
    public var line: Int?
    public var reason: String

    public init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var description: String {
        if let line { return "\(path):\(line): \(reason)" }
        return "\(path): \(reason)"
    }
}

/// Reading the JSON5 files under `rules/` (comments, trailing commas and unquoted keys
/// allowed: Foundation's `JSONDecoder.allowsJSON5`).
public enum RulesFile {
    /// Decodes one JSON5 rules file.
    /// - Throws: ``RulesError`` naming the file, the line when known, and the reason.
    public static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws(RulesError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RulesError(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        // Foundation's JSON5 scanner traps on malformed UTF-8 in an unquoted key instead of
        // throwing, so a file that is not UTF-8 (RFC 8259 §8.1) is refused before it is decoded.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw RulesError(path: url.path, reason: "not UTF-8 text")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, path: url.path, data: data)
        } catch {
            throw RulesError(path: url.path, reason: "\(error)")
        }
    }

    /// The `*.json5` files of a folder, sorted by name.
    public static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json5") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Finds the rules folder: `$MAILORDERS_RULES`, else `share/mailorders/rules` beside the
    /// executable's `bin/`, else the nearest `rules/` above the executable (a build inside a
    /// checkout), else the nearest `rules/` above this source file (tests).
    public static func defaultDirectory(executablePath: String? = CommandLine.arguments.first) -> URL? {
        let fileManager = FileManager.default
        func isRulesFolder(_ url: URL) -> Bool {
            fileManager.fileExists(atPath: url.appendingPathComponent("carriers").path)
        }
        if let fromEnvironment = ProcessInfo.processInfo.environment["MAILORDERS_RULES"],
            !fromEnvironment.isEmpty
        {
            return URL(fileURLWithPath: fromEnvironment)
        }
        var starts: [URL] = []
        if let executablePath {
            let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
            let bin = executable.deletingLastPathComponent()
            let installed = bin.deletingLastPathComponent().appendingPathComponent("share/mailorders/rules")
            if isRulesFolder(installed) { return installed }
            starts.append(bin)
        }
        starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        for start in starts {
            var folder = start
            for _ in 0..<8 {
                let candidate = folder.appendingPathComponent("rules")
                if isRulesFolder(candidate) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }

    private static func describe(_ error: DecodingError, path: String, data: Data) -> RulesError {
        switch error {
        case .dataCorrupted(let context):
            let underlying =
                (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let reason = underlying ?? context.debugDescription
            if let line = lineNumber(in: reason) { return RulesError(path: path, line: line, reason: reason) }
            // The decoder gave no position: find the first syntax error ourselves.
            if let located = JSON5Syntax.firstError(in: data) {
                return RulesError(path: path, line: located.line, reason: located.reason)
            }
            return RulesError(path: path, reason: reason)
        case .keyNotFound(let key, let context):
            return RulesError(
                path: path, reason: "missing key '\(key.stringValue)' at \(codingPath(context))")
        case .typeMismatch(let type, let context):
            return RulesError(
                path: path, reason: "expected \(type) at \(codingPath(context)): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return RulesError(path: path, reason: "missing \(type) value at \(codingPath(context))")
        @unknown default:
            return RulesError(path: path, reason: "\(error)")
        }
    }

    private static func codingPath(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : path
    }

    private static func lineNumber(in message: String) -> Int? {
        guard let range = message.range(of: "line ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}
