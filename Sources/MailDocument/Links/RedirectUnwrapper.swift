import MIME

/// Finds the destination inside click-tracker redirect URLs, without fetching anything.
///
/// A tracker URL carries its target in a query parameter (`?url=`, `?u=`, `?q=`, …), in a
/// path segment (`/L0/https:%2F%2Fshop.example%2F…`), percent-encoded once or several times,
/// or base64url-encoded. The unwrapper takes the target out and repeats on the result, up
/// to ``maxRounds`` times, so wrappers nested in wrappers come apart too (RFC 3986 §2.1
/// percent-encoding, §3 components; RFC 4648 §5 base64url). Works on UTF-8 bytes: it runs
/// for every link of every email.
public enum RedirectUnwrapper {
    /// How many wrappers are peeled off at most.
    public static let maxRounds = 8

    /// Query parameter names that usually carry the destination, most telling first.
    static let preferredParameters: [[UInt8]] = [
        "url", "u", "target", "targeturl", "target_url", "dest", "destination", "redirect", "redirect_url",
        "redirecturl", "redirect_uri", "r", "q", "to", "goto", "link", "l", "out", "href", "next", "continue",
        "return", "uri",
    ].map { Array($0.utf8) }

    /// The final target of a possibly wrapped URL.
    ///
    /// - Parameter url: A URL as written in an `href` or in plain text.
    /// - Returns: The innermost `http`/`https` URL found inside it, or `url` itself (trimmed)
    ///   when it wraps none.
    public static func unwrap(_ url: String) -> String {
        var bytes = trimmed(Array(url.utf8))
        guard bytes.count <= 16_384 else { return String(decoding: bytes, as: UTF8.self) }
        for _ in 0..<maxRounds {
            guard let inner = innerURL(of: bytes), inner != bytes else { break }
            bytes = inner
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The URL one wrapper deep, or `nil` when `url` wraps none.
    static func innerURL(of url: [UInt8]) -> [UInt8]? {
        guard mayWrapURL(url), let authorityStart = schemeEnd(url) else { return nil }
        var pathStart = authorityStart
        while pathStart < url.count, url[pathStart] != slash, url[pathStart] != question,
            url[pathStart] != hash
        {
            pathStart += 1
        }
        var queryStart = pathStart
        while queryStart < url.count, url[queryStart] != question, url[queryStart] != hash { queryStart += 1 }
        var fragmentStart = queryStart
        while fragmentStart < url.count, url[fragmentStart] != hash { fragmentStart += 1 }
        let path = url[pathStart..<queryStart]
        let query = queryStart < fragmentStart ? url[(queryStart + 1)..<fragmentStart] : []
        let fragment = fragmentStart < url.count ? url[(fragmentStart + 1)...] : []

        // 1. Query parameters, preferred names first, then any parameter holding a URL.
        var best: (rank: Int, value: [UInt8])?
        for pair in query.split(separator: ampersand) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard equals < pair.endIndex else { continue }
            let value = pair[(equals + 1)...]
            guard !value.isEmpty, mentionsURL(value), let found = decodedURL(value) else { continue }
            let name = lowercased(pair[pair.startIndex..<equals])
            let rank = preferredParameters.firstIndex(of: name) ?? preferredParameters.count
            if rank < (best?.rank ?? Int.max) { best = (rank, found) }
        }
        if let best { return best.value }

        // 2. A path segment that is itself a URL: encoded up to the next "/", or raw to the end.
        if let start = firstHTTP(in: path) {
            let tail = url[start..<queryStart]
            if hasPrefix(tail, "http%3a") || hasPrefix(tail, "https%3a") || hasPrefix(tail, "http:%2f")
                || hasPrefix(tail, "https:%2f")
            {
                let encoded = tail.prefix(while: { $0 != slash })
                if let found = decodedURL(encoded) { return found }
            } else if hasPrefix(tail, "http:/") || hasPrefix(tail, "https:/") {
                var rebuilt = Array(url[start...])
                // "https:/x" inside a path (slashes merged by a proxy) gets its second slash back.
                if let colon = rebuilt.firstIndex(of: UInt8(ascii: ":")), colon + 2 < rebuilt.count,
                    rebuilt[colon + 2] != slash
                {
                    rebuilt.insert(slash, at: colon + 1)
                }
                if isHTTPURL(rebuilt[...]) { return rebuilt }
            }
        }
        for segment in path.split(separator: slash) where segment.count >= 16 && mentionsURL(segment) {
            if let decoded = base64Decoded(segment), isHTTPURL(decoded[...]) { return decoded }
        }
        // 3. A fragment holding a URL.
        if !fragment.isEmpty, let found = decodedURL(fragment) { return found }
        return nil
    }

    /// Whether a value holds `http` (any case) or `aHR0c` anywhere: a URL, encoded or not.
    private static func mentionsURL(_ value: ArraySlice<UInt8>) -> Bool {
        var index = value.startIndex
        while index + 4 <= value.endIndex {
            let byte = value[index]
            if byte | 0x20 == UInt8(ascii: "h"), value[index + 1] | 0x20 == UInt8(ascii: "t"),
                value[index + 2] | 0x20 == UInt8(ascii: "t"), value[index + 3] | 0x20 == UInt8(ascii: "p")
            {
                return true
            }
            if byte == UInt8(ascii: "a"), index + 5 <= value.endIndex, value[index + 1] == UInt8(ascii: "H"),
                value[index + 2] == UInt8(ascii: "R"), value[index + 3] == UInt8(ascii: "0"),
                value[index + 4] == UInt8(ascii: "c")
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether `bytes` starts with the lower-case ASCII `prefix`, ignoring case.
    private static func hasPrefix(_ bytes: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        var index = bytes.startIndex
        for offset in 0..<count {
            var byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte != start[offset] { return false }
            index += 1
        }
        return true
    }

    /// Cheap test: after the scheme, the URL mentions `http` (plain or percent-encoded) or
    /// `aHR0c` (the base64 of `http`). Most links fail it and skip the rest.
    static func mayWrapURL(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 12 else { return false }
        var index = 8
        while index + 4 < bytes.count {
            let b0 = bytes[index]
            if b0 | 0x20 == UInt8(ascii: "h"), bytes[index + 1] | 0x20 == UInt8(ascii: "t"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "t"), bytes[index + 3] | 0x20 == UInt8(ascii: "p")
            {
                return true
            }
            if b0 == UInt8(ascii: "a"), bytes[index + 1] == UInt8(ascii: "H"),
                bytes[index + 2] == UInt8(ascii: "R"),
                bytes[index + 3] == UInt8(ascii: "0"), bytes[index + 4] == UInt8(ascii: "c")
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// A parameter or segment value as a URL: percent-decoded (repeatedly) or base64url-decoded.
    private static func decodedURL(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var value = Array(raw)
        for _ in 0..<4 {
            if isHTTPURL(value[...]) { return value }
            guard value.contains(percent), let decoded = percentDecoded(value), decoded != value else {
                break
            }
            value = decoded
        }
        if isHTTPURL(value[...]) { return value }
        if value.count >= 16, let decoded = base64Decoded(value[...]), isHTTPURL(decoded[...]) {
            return decoded
        }
        return nil
    }

    private static func isHTTPURL(_ value: ArraySlice<UInt8>) -> Bool {
        guard value.count > 10, hasPrefix(value, "https://") || hasPrefix(value, "http://") else {
            return false
        }
        return !value.contains(where: { $0 <= 0x20 || $0 == 0x7F })
    }

    /// The index after `http://` or `https://` (any case), or `nil`.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        if hasPrefix(bytes[...], "https://") { return 8 }
        if hasPrefix(bytes[...], "http://") { return 7 }
        return nil
    }

    private static func firstHTTP(in path: ArraySlice<UInt8>) -> Int? {
        var index = path.startIndex
        while index + 4 <= path.endIndex {
            if path[index] | 0x20 == UInt8(ascii: "h"), path[index + 1] | 0x20 == UInt8(ascii: "t"),
                path[index + 2] | 0x20 == UInt8(ascii: "t"), path[index + 3] | 0x20 == UInt8(ascii: "p"),
                index > path.startIndex, path[index - 1] == slash
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        PercentEncoding.decode(bytes)
    }

    /// Decodes base64url or base64 (RFC 4648 §4, §5), padding optional; `nil` when the text
    /// is not base64 or does not decode to UTF-8.
    static func base64Decoded(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): continue
            case percent:
                // "%3D" is an encoded "=".
                index += 2
                continue
            default: return nil
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        guard String(validating: output, as: UTF8.self) != nil else { return nil }
        return output
    }

    private static func lowercased(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] <= 0x20 { start += 1 }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        return start == 0 && end == bytes.count ? bytes : Array(bytes[start..<end])
    }

    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
    private static let ampersand = UInt8(ascii: "&")
    private static let percent = UInt8(ascii: "%")
}
