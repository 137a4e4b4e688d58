import Foundation
import Testing

@testable import WalletOrder

/// SHA-256 against the FIPS 180-4 examples (NIST "Cryptographic Standards and Guidelines:
/// Examples with Intermediate Values", SHA-256): the array form and the `Data` form agree.
@Suite struct DigestTests {
    @Test func sha256MatchesThePublishedExamples() {
        let examples: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
        for (message, digest) in examples {
            #expect(sha256Hex(Array(message.utf8)) == digest)
            #expect(Crypto.sha256Hex(Data(message.utf8)) == digest)
        }
        // A million 'a's: the third example of FIPS 180-2 appendix B.
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(sha256Hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
