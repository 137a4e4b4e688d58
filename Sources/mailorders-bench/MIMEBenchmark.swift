import Foundation
import MIME
import Mailbox

// `mailorders-bench mime [--size MB] [--mbox PATH] [--keep]`
//
// Generates an mbox of about `--size` megabytes (default 100) in a temporary folder,
// streams it through `MessageSource` and parses every message with `Message(bytes:)`,
// touching the decoded text bodies and attachments. Reports MIME parse throughput
// (MB/s and messages/s, parse time only, one core), end-to-end throughput, and peak
// resident memory. Run it at 100 and 1000 MB: peak memory should not grow.

func runMIMEBenchmark(arguments: [String]) {
    var sizeMB = 100
    var existing: String?
    var keep = false
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--size":
            index += 1
            if index < arguments.count, let value = Int(arguments[index]) { sizeMB = value }
        case "--mbox":
            index += 1
            if index < arguments.count { existing = arguments[index] }
        case "--keep": keep = true
        default:
            print("usage: mailorders-bench mime [--size MB] [--mbox PATH] [--keep]")
            return
        }
        index += 1
    }

    let path: String
    if let existing {
        path = existing
    } else {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mime-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("bench.mbox").path
        let started = Date()
        guard MIMEBenchmarkCorpus.write(to: path, bytes: sizeMB << 20) else {
            print("cannot write \(path)")
            return
        }
        print(
            String(format: "generated %@ (%d MB) in %.1f s", path, sizeMB, Date().timeIntervalSince(started)))
    }
    defer {
        if existing == nil && !keep { try? FileManager.default.removeItem(atPath: path) }
    }

    var messages = 0
    var bytes = 0
    var parseSeconds = 0.0
    var textCharacters = 0
    var problems = 0
    var warnings = 0
    var startUsage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &startUsage)
    let cpuAtStart =
        Double(startUsage.ru_utime.tv_sec + startUsage.ru_stime.tv_sec)
        + Double(startUsage.ru_utime.tv_usec + startUsage.ru_stime.tv_usec) / 1e6
    let started = DispatchTime.now()
    for result in MessageSource(paths: [path]) {
        guard case .success(let raw) = result else {
            problems += 1
            continue
        }
        let parseStart = threadCPUSeconds()
        guard let message = try? Message(bytes: raw.bytes) else {
            problems += 1
            continue
        }
        textCharacters += message.textBody?.text?.utf8.count ?? 0
        textCharacters += message.htmlBody?.text?.utf8.count ?? 0
        textCharacters += message.attachments.count
        warnings += message.warnings.count
        parseSeconds += threadCPUSeconds() - parseStart
        messages += 1
        bytes += raw.bytes.count
    }
    let totalSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    let megabytes = Double(bytes) / Double(1 << 20)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print(
        String(
            format: "messages: %d (%.1f MB), problems: %d, warnings: %d", messages, megabytes, problems,
            warnings))
    print(
        String(
            format: "MIME parse: %.1f MB/s, %.0f messages/s (%.2f s of CPU time on one core)",
            megabytes / parseSeconds,
            Double(messages) / parseSeconds, parseSeconds))
    print(
        String(
            format: "end to end (read mbox + parse): %.1f MB/s, %.0f messages/s (%.2f s)",
            megabytes / totalSeconds,
            Double(messages) / totalSeconds, totalSeconds))
    let cpuSeconds =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6 - cpuAtStart
    print(
        String(
            format: "end to end, CPU time: %.1f MB/s (%.2f s of CPU time, reading included)",
            megabytes / cpuSeconds, cpuSeconds))
    print(String(format: "peak RSS: %.1f MB", Double(usage.ru_maxrss) / 1024))
    if textCharacters == 0 { print("(no text decoded)") }
}

/// CPU time of the calling thread: on a shared machine wall time measures the neighbours.
private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A generated mbox with a realistic mix: plain and HTML alternatives in
/// quoted-printable, encoded headers in several charsets, base64 attachments,
/// forwarded messages.
enum MIMEBenchmarkCorpus {
    static func write(to path: String, bytes target: Int) -> Bool {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        var written = 0
        var index = 0
        var pending = Data()
        while written < target {
            let message = Data(self.message(index).utf8)
            pending.append(message)
            written += message.count
            index += 1
            if pending.count > 4 << 20 {
                handle.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        handle.write(pending)
        return true
    }

    private static let attachment: String = {
        var bytes = [UInt8](repeating: 0, count: 24_000)
        var state: UInt32 = 2_463_534_242
        for offset in bytes.indices {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            bytes[offset] = UInt8(truncatingIfNeeded: state)
        }
        let encoded = Data(bytes).base64EncodedString()
        var lines: [Substring] = []
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(encoded[start..<end])
            start = end
        }
        return lines.joined(separator: "\n")
    }()

    private static let paragraph =
        "Thank you for your order. Your items will ship within two business days and you will receive "
        + "a tracking number by email. Questions? Reply to this message =E2=80=94 we read every one.=\n"

    static func message(_ index: Int) -> String {
        let header = """
            From shop@example.com Mon Jan  1 00:00:00 2024
            Return-Path: <bounce-\(index)@mail.example.com>
            Received: from mail.example.com (mail.example.com [192.0.2.1])
            \tby mx.example.net with ESMTPS id \(index)
            \tfor <customer@example.net>; Mon, 1 Jan 2024 00:00:00 +0000
            Message-ID: <\(index).order@example.com>
            Date: Mon, 1 Jan 2024 10:\(10 + index % 50):00 +0100
            From: =?utf-8?q?Example_Sh=C3=B6p?= <orders@example.com>
            To: "Customer, Dear" <customer@example.net>
            Subject: =?utf-8?B?WW91ciBvcmRlciAj?= \(100_000 + index) =?iso-8859-1?q?best=E4tigt?=
            MIME-Version: 1.0

            """
        switch index % 4 {
        case 0, 1:
            let text = String(repeating: paragraph, count: 12)
            return header.replacingOccurrences(of: "MIME-Version: 1.0\n", with: "")
                + """
                MIME-Version: 1.0
                Content-Type: multipart/alternative; boundary="alt-\(index)"

                --alt-\(index)
                Content-Type: text/plain; charset=utf-8
                Content-Transfer-Encoding: quoted-printable

                \(text)
                --alt-\(index)
                Content-Type: text/html; charset=utf-8
                Content-Transfer-Encoding: quoted-printable

                <html><body><table><tr><td>Order #\(index)</td></tr></table><p>\(text)</p></body></html>
                --alt-\(index)--

                """
        case 2:
            return header.replacingOccurrences(of: "MIME-Version: 1.0\n", with: "")
                + """
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="mix-\(index)"

                --mix-\(index)
                Content-Type: text/plain; charset=iso-8859-1
                Content-Transfer-Encoding: 8bit

                Ihre Bestellung wurde versandt. Sendungsnummer 1Z999AA10123456784.
                --mix-\(index)
                Content-Type: application/pdf; name="invoice-\(index).pdf"
                Content-Disposition: attachment; filename="invoice-\(index).pdf"
                Content-Transfer-Encoding: base64

                \(attachment)
                --mix-\(index)--

                """
        default:
            return header.replacingOccurrences(of: "MIME-Version: 1.0\n", with: "")
                + """
                MIME-Version: 1.0
                Content-Type: multipart/mixed; boundary="fwd-\(index)"

                --fwd-\(index)
                Content-Type: text/plain; charset=utf-8

                Forwarded shipping notice below.
                >From the carrier: your parcel is on its way.
                --fwd-\(index)
                Content-Type: message/rfc822

                From: Carrier <noreply@carrier.example>
                Subject: Shipment update
                Content-Type: text/plain; charset=us-ascii

                Your parcel 1Z999AA10123456784 is out for delivery.
                --fwd-\(index)--

                """
        }
    }
}
