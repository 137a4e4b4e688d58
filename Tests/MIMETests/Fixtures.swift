import Foundation

@testable import MIME

/// Builds a message from lines joined with CRLF.
func crlf(_ lines: String...) -> [UInt8] {
    Array(lines.joined(separator: "\r\n").utf8)
}

func parse(_ bytes: [UInt8]) throws -> Message {
    try Message(bytes: bytes)
}

func parse(_ text: String) throws -> Message {
    try Message(bytes: Array(text.utf8))
}
