// Extraction benchmark: extraction time per message beside the HTML parse time of the same
// message. Goal: extraction adds at most half of what HTML parsing costs.
//
//     swift run -c release mailorders-bench extract [--iterations N] [--slowest K] [--dump FILE]
//         [FILE.eml|FOLDER]…
//
// Without paths it reads `Corpus/` of the checkout. Each message is parsed (MIME) and turned
// into a document once; then, N times over the whole set, its text/html parts are rendered
// (libxml2) and the document is extracted, each timed separately. `--slowest K` lists the K
// messages whose extraction took longest (µs per message beside their HTML parse);
// `--dump FILE` writes every message's extraction JSON (file name, tab, JSON line), so that
// two builds can be compared for identical results.
import Extraction
import Foundation
import MIME
import MailDocument

func runExtractionBenchmark(arguments: [String]) {
    var iterations = 20
    var slowest = 0
    var dumpPath: String?
    var paths: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--iterations", index + 1 < arguments.count, let value = Int(arguments[index + 1]),
            value > 0
        {
            iterations = value
            index += 2
            continue
        }
        if argument == "--slowest", index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
            slowest = value
            index += 2
            continue
        }
        if argument == "--dump", index + 1 < arguments.count {
            dumpPath = arguments[index + 1]
            index += 2
            continue
        }
        if argument == "--help" || argument == "-h" {
            print(
                "usage: mailorders-bench extract [--iterations N] [--slowest K] [--dump FILE] [FILE.eml|FOLDER]…"
            )
            return
        }
        paths.append(argument)
        index += 1
    }
    guard let rulesDirectory = RulesFile.defaultDirectory() else {
        print("error: no rules folder found (set MAILORDERS_RULES)")
        return
    }
    if paths.isEmpty {
        paths = [rulesDirectory.deletingLastPathComponent().appendingPathComponent("Corpus").path]
    }
    let rules: Rules
    do {
        rules = try Rules.load(from: rulesDirectory)
    } catch {
        print("error: \(error)")
        return
    }
    let extractor = Extractor(rules: rules)

    var messages: [(name: String, html: [(String, String)], document: MailDocument)] = []
    var bytesRead = 0
    for file in emlFiles(paths) {
        guard let data = FileManager.default.contents(atPath: file),
            let message = try? Message(bytes: Array(data))
        else {
            print("warning: skipped \(file)")
            continue
        }
        bytesRead += data.count
        messages.append(
            ((file as NSString).lastPathComponent, htmlParts(message.root), MailDocument(message: message)))
    }
    guard !messages.isEmpty else {
        print("no messages found")
        return
    }
    var sink = 0
    if let dumpPath {
        var lines = ""
        for message in messages {
            lines += message.name + "\t" + ExtractionJSON.line(extractor.extract(message.document)) + "\n"
        }
        _ = FileManager.default.createFile(atPath: dumpPath, contents: Data(lines.utf8))
    }

    // One untimed pass first: what is prepared on first use (regular expressions) is start-up.
    for message in messages { sink &+= extractor.extract(message.document).evidence?.count ?? 0 }
    var htmlSeconds = 0.0
    var extractSeconds = 0.0
    var perMessage = Array(repeating: (html: 0.0, extract: 0.0), count: messages.count)
    for _ in 0..<iterations {
        for (messageIndex, message) in messages.enumerated() {
            let htmlStart = DispatchTime.now().uptimeNanoseconds
            for (html, path) in message.html {
                sink &+= HTMLRenderer.render(html: html, partPath: path).text.text.utf8.count
            }
            let extractStart = DispatchTime.now().uptimeNanoseconds
            let result = extract(message.document, with: extractor)
            let end = DispatchTime.now().uptimeNanoseconds
            sink &+= result.evidence?.count ?? 0
            htmlSeconds += Double(extractStart - htmlStart) / 1e9
            extractSeconds += Double(end - extractStart) / 1e9
            perMessage[messageIndex].html += Double(extractStart - htmlStart) / 1e9
            perMessage[messageIndex].extract += Double(end - extractStart) / 1e9
        }
    }
    let runs = Double(messages.count * iterations)
    let htmlMicros = htmlSeconds / runs * 1e6
    let extractMicros = extractSeconds / runs * 1e6
    print("messages: \(messages.count) (\(bytesRead) bytes), iterations: \(iterations)")
    print(String(format: "HTML parse:  %8.1f µs per message", htmlMicros))
    print(String(format: "extraction:  %8.1f µs per message", extractMicros))
    if htmlMicros > 0 {
        print(
            String(format: "extraction / HTML parse: %.0f%% (goal ≤ 50%%)", extractMicros / htmlMicros * 100))
    }
    if slowest > 0 {
        print("slowest extractions (µs per message: extraction, HTML parse):")
        let order = perMessage.indices.sorted { perMessage[$0].extract > perMessage[$1].extract }
        for index in order.prefix(slowest) {
            let times = String(
                format: "%9.1f %9.1f", perMessage[index].extract / Double(iterations) * 1e6,
                perMessage[index].html / Double(iterations) * 1e6)
            print(times + "  " + messages[index].name)
        }
    }
    if sink == Int.min { print(sink) }
}

/// One extraction, in a function of its own so that profilers can single it out.
@inline(never)
func extract(_ document: MailDocument, with extractor: Extractor) -> ExtractionResult {
    extractor.extract(document)
}

/// `.eml` files named, or inside the folders named (not recursive), sorted.
private func emlFiles(_ paths: [String]) -> [String] {
    var files: [String] = []
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files += names.filter { $0.hasSuffix(".eml") }.sorted().map {
                (path as NSString).appendingPathComponent($0)
            }
        } else {
            files.append(path)
        }
    }
    return files
}

/// The decoded text of every text/html part, with its part path.
private func htmlParts(_ part: BodyPart) -> [(String, String)] {
    var result: [(String, String)] = []
    if part.contentType.essence == "text/html", let text = part.text { result.append((text, part.path)) }
    for child in part.children { result += htmlParts(child) }
    if let inner = part.encapsulatedMessage { result += htmlParts(inner.root) }
    return result
}
