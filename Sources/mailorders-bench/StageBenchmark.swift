// Per-stage times over one mailbox, and the libxml2-parse-only baseline on the same mailbox.
//
//     swift run -c release mailorders-bench baseline [--json] PATH…
//
// PATH is anything `mailorders scan` reads (Maildir, mbox, .eml, folder). On one thread, each
// message is read, MIME-parsed, put through the prefilter, turned into a document and
// extracted, each step timed on the thread's CPU clock; separately, every text/html part is
// parsed by libxml2 alone (same preparation and options as the renderer) and freed: the floor
// of the HTML work. Figures are reported for all messages and for the order emails alone
// (those the full extraction classifies as anything but notAnOrder).
import CLibXML2
import Extraction
import Foundation
import MIME
import MailDocument
import Mailbox

private struct StageTimes {
    var messages = 0
    var bytes = 0
    var read: UInt64 = 0
    var mime: UInt64 = 0
    var prefilter: UInt64 = 0
    var document: UInt64 = 0
    var extract: UInt64 = 0
    var libxml2: UInt64 = 0
    var htmlParts = 0
    var passed = 0

    mutating func add(_ other: StageTimes) {
        messages += other.messages
        bytes += other.bytes
        read += other.read
        mime += other.mime
        prefilter += other.prefilter
        document += other.document
        extract += other.extract
        libxml2 += other.libxml2
        htmlParts += other.htmlParts
        passed += other.passed
    }

    /// MIME → document → extraction, without the prefilter (every message gets the full work).
    var fullWork: UInt64 { mime + document + extract }

    func json(prefilteredDocument: UInt64, prefilteredExtract: UInt64) -> [String: Any] {
        func ms(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e6 * 10).rounded() / 10 }
        let withPrefilter = mime + prefilter + prefilteredDocument + prefilteredExtract
        return [
            "messages": messages, "megabytes": (Double(bytes) / 1_048_576 * 10).rounded() / 10,
            "htmlParts": htmlParts, "prefilterPassed": passed,
            "readMs": ms(read), "mimeMs": ms(mime), "prefilterMs": ms(prefilter), "documentMs": ms(document),
            "extractMs": ms(extract), "libxml2ParseOnlyMs": ms(libxml2),
            "fullWorkMs": ms(fullWork), "withPrefilterMs": ms(withPrefilter),
            "baselineRatio": fullWork > 0 ? (Double(libxml2) / Double(fullWork) * 1000).rounded() / 1000 : 0,
        ]
    }
}

func runBaselineBenchmark(arguments: [String]) {
    let json = arguments.contains("--json")
    let paths = arguments.filter { $0 != "--json" }
    guard !paths.isEmpty, !paths.contains("--help") else {
        print("usage: mailorders-bench baseline [--json] PATH…")
        return
    }
    guard let rulesDirectory = RulesFile.defaultDirectory(), let rules = try? Rules.load(from: rulesDirectory)
    else {
        print("error: no readable rules folder found (set MAILORDERS_RULES)")
        return
    }
    let extractor = Extractor(rules: rules)
    let prefilter = Prefilter(rules: rules)
    var all = StageTimes()
    var orders = StageTimes()
    // Document and extraction time of the messages the prefilter lets through.
    var passedDocument: UInt64 = 0
    var passedExtract: UInt64 = 0
    var ordersPassedDocument: UInt64 = 0
    var ordersPassedExtract: UInt64 = 0
    var missed = 0
    let source = MessageSource(paths: paths)
    while true {
        var times = StageTimes()
        var start = stageClock()
        guard let next = source.next() else { break }
        times.read = stageClock() - start
        guard case .success(let raw) = next else { continue }
        times.messages = 1
        times.bytes = raw.bytes.count
        start = stageClock()
        guard let message = try? Message(bytes: raw.bytes) else { continue }
        times.mime = stageClock() - start
        start = stageClock()
        let passes = prefilter.needsFullWork(message)
        times.prefilter = stageClock() - start
        times.passed = passes ? 1 : 0
        start = stageClock()
        let document = MailDocument(message: message)
        times.document = stageClock() - start
        start = stageClock()
        let result = extractor.extract(document)
        times.extract = stageClock() - start
        for part in message.allParts where part.contentType.subtype.lowercased() == "html" {
            guard let html = part.text else { continue }
            times.htmlParts += 1
            start = stageClock()
            libxml2ParseOnly(html)
            times.libxml2 += stageClock() - start
        }
        all.add(times)
        if passes {
            passedDocument += times.document
            passedExtract += times.extract
        }
        if result.kind != .notAnOrder {
            orders.add(times)
            if passes {
                ordersPassedDocument += times.document
                ordersPassedExtract += times.extract
            } else {
                missed += 1
            }
        }
    }
    let report: [String: Any] = [
        "all": all.json(prefilteredDocument: passedDocument, prefilteredExtract: passedExtract),
        "orders": orders.json(
            prefilteredDocument: ordersPassedDocument, prefilteredExtract: ordersPassedExtract),
        "ordersRejectedByPrefilter": missed,
    ]
    if json {
        let data =
            (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted]))
            ?? Data()
        print(String(decoding: data, as: UTF8.self))
        return
    }
    for (name, times) in [("all messages", all), ("order emails", orders)] {
        let seconds = Double(times.fullWork) / 1e9
        print(
            "\(name): \(times.messages) messages, \(times.bytes >> 20) MB, \(times.htmlParts) HTML parts; "
                + "prefilter passed \(times.passed)")
        print(
            String(
                format:
                    "  CPU ms: read %.0f, MIME %.0f, prefilter %.0f, document %.0f, extraction %.0f; libxml2 parse only %.0f",
                Double(times.read) / 1e6, Double(times.mime) / 1e6, Double(times.prefilter) / 1e6,
                Double(times.document) / 1e6, Double(times.extract) / 1e6, Double(times.libxml2) / 1e6))
        print(
            String(
                format: "  full work %.0f msg/s on one core; libxml2 baseline / full work = %.2f",
                seconds > 0 ? Double(times.messages) / seconds : 0,
                times.fullWork > 0 ? Double(times.libxml2) / Double(times.fullWork) : 0))
    }
    print("order emails the prefilter rejected: \(missed)")
}

/// The calling thread's CPU time in nanoseconds.
private func stageClock() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// libxml2 alone on `html`: the renderer's preparation and options, parse, free.
private func libxml2ParseOnly(_ html: String) {
    let bytes = HTMLRenderer.preparedBytes(html: html)
    let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.flatMap { base in
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(buffer.count), nil, "UTF-8", HTMLRenderer.parseOptions)
            }
        }
    }
    if let document { xmlFreeDoc(document) }
}
