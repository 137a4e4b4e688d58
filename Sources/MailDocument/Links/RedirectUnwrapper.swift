import Foundation

/// Finds the destination inside click-tracker redirect URLs, without fetching anything.
///
/// A tracker URL carries its target in a query parameter (`?url=`, `?u=`, `?q=`, …), in a
/// path segment (`/L0/https:%2F%2Fshop.example%2F…`), percent-encoded once or several times,
/// or base64url-encoded. The unwrapper takes the target out and repeats on the result, up
/// to ``maxRounds`` times, so wrappers nested in wrappers come apart too (RFC 3986 §2.1
/// percent-encoding, RFC 4648 §5 base64url).
public enum RedirectUnwrapper {
    /// How many wrappers are peeled off at most.
    public static let maxRounds = 8

    /// Query parameter names that usually carry the destination, most telling first.
    static let preferredParameters: [String] = [
        "url", "u", "target", "targeturl", "target_url", "dest", "destination", "redirect", "redirect_url",
        "redirecturl", "redirect_uri", "r", "q", "to", "goto", "link", "l", "out", "href", "next", "continue",
        "return", "uri",
    ]

    /// The final target of a possibly wrapped URL.
    ///
    /// - Parameter url: A URL as written in an `href` or in plain text.
    /// - Returns: The innermost `http`/`https` URL found inside it, or `url` itself (trimmed)
    ///   when it wraps none.
    public static func unwrap(_ url: String) -> String {
        var current = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard current.utf8.count <= 16_384 else { return current }
        for _ in 0..<maxRounds {
            guard let inner = innerURL(of: current), inner != current else { break }
            current = inner
        }
        return current
    }

    /// The URL one wrapper deep, or `nil` when `url` wraps none.
    static func innerURL(of url: String) -> String? {
        guard mayWrapURL(url) else { return nil }
        guard let components = URLComponents(string: url) ?? URLComponents(string: lenientlyEscaped(url)),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }

        // 1. Query parameters, preferred names first, then any parameter holding a URL.
        let items = components.percentEncodedQueryItems ?? []
        var candidates: [(rank: Int, value: String)] = []
        for item in items {
            guard let raw = item.value, !raw.isEmpty else { continue }
            let name = item.name.lowercased()
            let rank = preferredParameters.firstIndex(of: name) ?? preferredParameters.count
            if let found = decodedURL(raw) { candidates.append((rank, found)) }
        }
        if let best = candidates.min(by: { $0.rank < $1.rank }) { return best.value }

        // 2. A path segment that is itself a URL (percent-encoded, or base64url).
        let path = components.percentEncodedPath
        if let range = path.range(of: "http", options: .caseInsensitive) {
            let tail = String(path[range.lowerBound...])
            // The embedded URL runs to the end of the path; trackers append "/1/<id>" after an
            // encoded URL, so an encoded one ends at the first raw "/".
            if tail.lowercased().hasPrefix("http%3a") || tail.lowercased().hasPrefix("https%3a")
                || tail.lowercased().hasPrefix("http:%2f") || tail.lowercased().hasPrefix("https:%2f")
            {
                let encoded = tail.split(separator: "/", maxSplits: 1).first.map(String.init) ?? tail
                if let found = decodedURL(encoded) { return found }
            } else if tail.lowercased().hasPrefix("http://") || tail.lowercased().hasPrefix("https://")
                || tail.lowercased().hasPrefix("http:/") || tail.lowercased().hasPrefix("https:/")
            {
                var rebuilt = tail
                if let query = components.percentEncodedQuery { rebuilt += "?" + query }
                if let found = decodedURL(rebuilt) { return found }
            }
        }
        for segment in path.split(separator: "/") where segment.count >= 16 {
            if let decoded = base64URLDecoded(String(segment)), isHTTPURL(decoded) { return decoded }
        }
        // 3. A fragment holding a URL.
        if let fragment = components.percentEncodedFragment, let found = decodedURL(fragment) { return found }
        return nil
    }

    /// Cheap test: after the scheme, the URL mentions `http` (plain or percent-encoded) or
    /// `aHR0c` (the base64 of `http`). Most links fail it and skip URL parsing entirely.
    static func mayWrapURL(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count > 12 else { return false }
        var index = 8
        while index + 4 < bytes.count {
            let b0 = bytes[index] | 0x20
            if b0 == UInt8(ascii: "h"), bytes[index + 1] | 0x20 == UInt8(ascii: "t"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "t"), bytes[index + 3] | 0x20 == UInt8(ascii: "p")
            {
                return true
            }
            if bytes[index] == UInt8(ascii: "a"), bytes[index + 1] == UInt8(ascii: "H"),
                bytes[index + 2] == UInt8(ascii: "R"), bytes[index + 3] == UInt8(ascii: "0"),
                bytes[index + 4] == UInt8(ascii: "c")
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// A parameter or segment value as a URL: percent-decoded (repeatedly) or base64url-decoded.
    private static func decodedURL(_ raw: String) -> String? {
        var value = raw
        for _ in 0..<4 {
            if isHTTPURL(value) { return value.trimmingCharacters(in: .whitespacesAndNewlines) }
            let plus = value.replacingOccurrences(of: "+", with: " ")
            guard let decoded = plus.removingPercentEncoding ?? value.removingPercentEncoding,
                decoded != value
            else { break }
            value = decoded
        }
        if isHTTPURL(value) { return value }
        if value.count >= 16, let decoded = base64URLDecoded(value), isHTTPURL(decoded) { return decoded }
        return nil
    }

    private static func isHTTPURL(_ value: String) -> Bool {
        let lower = value.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
        return value.utf8.count > 10 && !value.contains(" ")
    }

    /// Decodes base64url or base64 text (RFC 4648 §4, §5), padding optional.
    static func base64URLDecoded(_ value: String) -> String? {
        var text = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text = text.replacingOccurrences(of: "%3D", with: "=").replacingOccurrences(of: "%3d", with: "=")
        guard
            text.utf8.allSatisfy({
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
                    || $0 == 0x2B
                    || $0 == 0x2F || $0 == 0x3D
            })
        else { return nil }
        while text.utf8.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Escapes characters `URLComponents` refuses (spaces, `|`, non-ASCII) so a sloppy
    /// href still parses.
    private static func lenientlyEscaped(_ url: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%/?:@&=+$,;")
        return url.addingPercentEncoding(withAllowedCharacters: allowed) ?? url
    }
}
