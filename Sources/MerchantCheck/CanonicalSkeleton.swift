import Foundation

/// Texts reduced to what canonical equivalence keeps of them, to rule out cheaply that
/// Foundation's `String.contains` finds one in another.
///
/// The skeleton of a text is the UTF-8 of its canonical decomposition (NFD, Unicode §3.11)
/// without the combining marks (canonical combining class above 0), taken a scalar at a time.
/// Canonically equivalent texts, which `contains` takes as equal (`é` and `e` U+0301, a Hangul
/// syllable and its jamo), have the same skeleton; and since canonical ordering only moves
/// combining marks, the skeleton of a text is the skeletons of its parts one after the other.
/// So when `text.contains(word)`, the skeleton of `word` is a run of bytes of the skeleton of
/// `text`; when it is not, `contains` would answer `false` and need not be asked.
struct CanonicalSkeleton {
    /// The skeleton of each scalar above ASCII met so far.
    private var cache: [UInt32: [UInt8]] = [:]

    /// The skeleton of `text`.
    mutating func bytes(of text: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.append(UInt8(scalar.value))
            } else if let known = cache[scalar.value] {
                result.append(contentsOf: known)
            } else {
                var skeleton: [UInt8] = []
                for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                where part.properties.canonicalCombiningClass == .notReordered {
                    skeleton.append(contentsOf: String(part).utf8)
                }
                cache[scalar.value] = skeleton
                result.append(contentsOf: skeleton)
            }
        }
        return result
    }

    /// Whether `text.contains(word)`, asked of Foundation only when the skeleton of `word`
    /// is in the skeleton of `text`.
    /// - Parameters:
    ///   - word: the word, with its skeleton (``bytes(of:)``).
    ///   - text: the text, with its skeleton.
    static func contains(
        _ text: (string: String, skeleton: [UInt8]), _ word: (string: String, skeleton: [UInt8])
    ) -> Bool {
        // A word of combining marks alone has an empty skeleton: only Foundation can tell.
        guard word.skeleton.isEmpty || ByteSearch.find(word.skeleton, in: text.skeleton) != nil else {
            return false
        }
        return text.string.contains(word.string)
    }
}
