import CZlib
import Foundation

/// Headless Chromium for the report tests: a screenshot and the DOM after load.
struct Chromium {
    let path: String

    /// Debian's `chromium`, `chromium-browser`, or `$CHROMIUM`; `nil` when none is installed.
    static let installed: Chromium? = {
        var candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], !path.isEmpty {
            candidates.insert(path, at: 0)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map(Chromium.init(path:))
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs Chromium headless on a file with the given arguments; returns standard output.
    ///
    /// Headless Chromium now and then never exits after loading a page (seen about once in
    /// a few hundred runs, whatever the page): a run that passes `timeout` is killed and started
    /// once more, with a fresh profile, before it counts as a failure.
    func run(_ arguments: [String], page: URL, timeout: TimeInterval = 60) throws -> Data {
        do {
            return try runOnce(arguments, page: page, timeout: timeout)
        } catch let failure as Failure where failure.description.hasPrefix("chromium did not finish") {
            return try runOnce(arguments, page: page, timeout: timeout)
        }
    }

    private func runOnce(_ arguments: [String], page: URL, timeout: TimeInterval) throws -> Data {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mo-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
            ] + arguments + [page.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read while it runs so a large DOM cannot fill the pipe.
        let box = DataBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.data = output.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "chromium did not finish within \(Int(timeout)) s")
        }
        done.wait()
        return box.data
    }

    private final class DataBox: @unchecked Sendable { var data = Data() }

    /// The serialized DOM after load; with `screenshot`, also a PNG of the page, taken once
    /// every frame has been composited.
    func render(_ page: URL, screenshot png: URL? = nil, width: Int = 1280, height: Int = 1600) throws
        -> String
    {
        var arguments = [
            "--dump-dom", "--virtual-time-budget=3000", "--run-all-compositor-stages-before-draw",
        ]
        if let png { arguments += ["--screenshot=\(png.path)", "--window-size=\(width),\(height)"] }
        let dom = String(decoding: try run(arguments, page: page), as: UTF8.self)
        if let png, !FileManager.default.fileExists(atPath: png.path) {
            throw Failure(description: "chromium wrote no screenshot")
        }
        return dom
    }
}

/// A decoded 8-bit RGB or RGBA PNG (ISO/IEC 15948 §10–§12: zlib stream, per-row filters).
struct DecodedPNG {
    var width: Int
    var height: Int
    /// RGB triples, row by row.
    var pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 33, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure(description: "not a PNG")
        }
        func be32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        var offset = 8
        var idat: [UInt8] = []
        var width = 0
        var height = 0
        var channels = 0
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length <= bytes.count else {
                throw Failure(description: "truncated chunk")
            }
            if type == "IHDR" {
                width = be32(start)
                height = be32(start + 4)
                guard bytes[start + 8] == 8, bytes[start + 12] == 0 else {
                    throw Failure(description: "only 8-bit non-interlaced PNGs")
                }
                switch bytes[start + 9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Failure(description: "colour type \(bytes[start + 9]) not supported")
                }
            } else if type == "IDAT" {
                idat += bytes[start..<start + length]
            } else if type == "IEND" {
                break
            }
            offset = start + length + 4
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { output in
            idat.withUnsafeBufferPointer { input in
                uncompress(output.baseAddress, &rawLength, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Failure(description: "bad zlib data") }
        var previous = [UInt8](repeating: 0, count: stride)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            var line = Array(raw[row * (stride + 1) + 1..<(row + 1) * (stride + 1)])
            for index in 0..<stride {
                let left = index >= channels ? Int(line[index - channels]) : 0
                let up = Int(previous[index])
                let upLeft = index >= channels ? Int(previous[index - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let distances = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor =
                        distances.0 <= distances.1 && distances.0 <= distances.2
                        ? left : (distances.1 <= distances.2 ? up : upLeft)
                default: throw Failure(description: "bad filter \(filter)")
                }
                line[index] = UInt8(truncatingIfNeeded: Int(line[index]) + predictor)
            }
            for pixel in 0..<width { pixels += line[pixel * channels..<pixel * channels + 3] }
            previous = line
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// How many distinct colours (capped).
    func distinctColours(limit: Int = 10_000) -> Int {
        var seen = Set<Int>()
        var index = 0
        while index + 2 < pixels.count, seen.count < limit {
            seen.insert(Int(pixels[index]) << 16 | Int(pixels[index + 1]) << 8 | Int(pixels[index + 2]))
            index += 3
        }
        return seen.count
    }

    /// The share of pixels matching a predicate on (r, g, b).
    func share(where predicate: (UInt8, UInt8, UInt8) -> Bool) -> Double {
        var count = 0
        var index = 0
        while index + 2 < pixels.count {
            if predicate(pixels[index], pixels[index + 1], pixels[index + 2]) { count += 1 }
            index += 3
        }
        return pixels.isEmpty ? 0 : Double(count) / Double(pixels.count / 3)
    }
}
