import Foundation

/// Check-digit algorithms used by parcel carriers and postal operators.
///
/// Each function takes the *payload* (the characters the check digit protects, without the
/// check digit) and returns the expected check character, or `nil` when the payload holds a
/// character the algorithm cannot weigh. ``isValid(_:check:algorithm:)`` compares against a
/// printed check character.
public enum CheckDigit {
    /// The numeric value of a character for the weighted modulus-10 family: digits are
    /// themselves; letters map to `(ASCII code − 3) mod 10` (A=2, B=3, … I=0, J=1, …), the
    /// mapping UPS publishes for its 1Z numbers and OnTrac reuses for its C/D prefixes.
    static func mod10Value(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return (Int(byte) - 3) % 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return (Int(byte) - 32 - 3) % 10
        default: return nil
        }
    }

    /// Weighted modulus 10: the payload's values times repeating weights, check digit
    /// `(10 − sum mod 10) mod 10`.
    ///
    /// With `weights: [1, 2]` from the left this is the UPS 1Z check (UPS "Tracking Number
    /// check digit", published in UPS developer guides); `[3, 1]` from the left is USPS IMpb
    /// (USPS Publication 199 §3.4) and Canada Post; `[1, 3]` FedEx Ground 15-digit.
    /// - Parameters:
    ///   - payload: the characters before the check digit; letters use ``mod10Value(_:)``.
    ///   - weights: repeating multipliers, applied from the left, or from the right when
    ///     `fromRight` is true (the "reversal" variant).
    ///   - fromRight: apply the first weight to the last payload character.
    /// - Returns: the check digit 0–9, or `nil` for an empty payload or a character that is
    ///   neither a digit nor an ASCII letter.
    public static func weightedMod10(_ payload: String, weights: [Int], fromRight: Bool = false) -> Int? {
        var payload = payload
        return payload.withUTF8 { weightedMod10(bytes: $0, weights: weights, fromRight: fromRight) }
    }

    /// ``weightedMod10(_:weights:fromRight:)`` over UTF-8 bytes.
    static func weightedMod10(bytes: UnsafeBufferPointer<UInt8>, weights: [Int], fromRight: Bool) -> Int? {
        guard !bytes.isEmpty, !weights.isEmpty else { return nil }
        var sum = 0
        for index in 0..<bytes.count {
            let byte = fromRight ? bytes[bytes.count - 1 - index] : bytes[index]
            guard let value = mod10Value(byte) else { return nil }
            sum += value * weights[index % weights.count]
        }
        return (10 - sum % 10) % 10
    }

    /// GS1 modulus 10 (SSCC-18, GTIN, GSIN): weights 3, 1, 3, … from the rightmost payload
    /// digit.
    ///
    /// Source: GS1 General Specifications §7.9.1 "Standard check digit calculations for GS1
    /// data structures".
    /// - Parameter payload: the digits before the check digit.
    /// - Returns: the check digit, or `nil` if the payload is empty or holds a non-digit.
    public static func gs1(_ payload: String) -> Int? {
        var payload = payload
        return payload.withUTF8 { gs1(bytes: $0) }
    }

    /// ``gs1(_:)`` over UTF-8 bytes.
    static func gs1(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.allSatisfy(isDigit) else { return nil }
        return weightedMod10(bytes: bytes, weights: [3, 1], fromRight: true)
    }

    /// Luhn (ISO/IEC 7812-1 Annex B): double every second digit from the rightmost payload
    /// digit, subtract 9 from two-digit products, check digit `(10 − sum mod 10) mod 10`.
    ///
    /// Used by Purolator's 12-digit numbers and Old Dominion PRO numbers.
    /// - Parameter payload: the digits before the check digit.
    /// - Returns: the check digit, or `nil` if the payload is empty or holds a non-digit.
    public static func luhn(_ payload: String) -> Int? {
        var payload = payload
        return payload.withUTF8 { luhn(bytes: $0) }
    }

    /// ``luhn(_:)`` over UTF-8 bytes.
    static func luhn(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy(isDigit) else { return nil }
        var sum = 0
        for (index, byte) in bytes.reversed().enumerated() {
            var value = Int(byte - UInt8(ascii: "0"))
            if index % 2 == 0 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return (10 - sum % 10) % 10
    }

    /// Modulus 7 ("7DR"): the payload read as a decimal number, remainder after division by 7.
    ///
    /// Used by DHL Express waybills (10 and 11 digits) and by Japanese carriers' 12-digit slip
    /// numbers (Yamato Transport, Sagawa Express).
    /// - Parameter payload: the digits before the check digit.
    /// - Returns: the check digit 0–6, or `nil` if the payload is empty or holds a non-digit.
    public static func mod7(_ payload: String) -> Int? {
        var payload = payload
        return payload.withUTF8 { mod7(bytes: $0) }
    }

    /// ``mod7(_:)`` over UTF-8 bytes.
    static func mod7(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var remainder = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            remainder = (remainder * 10 + Int(byte - UInt8(ascii: "0"))) % 7
        }
        return remainder
    }

    /// Weighted modulus 11, then modulus 10: `(Σ digit × weight) mod 11 mod 10`, weights
    /// repeating from the rightmost payload digit.
    ///
    /// FedEx Express 12-digit and 34-digit (serial part) numbers use weights 1, 3, 7 from the
    /// right (FedEx "Ship Manager" label specification, check digit for tracking numbers).
    /// - Parameters:
    ///   - payload: the digits before the check digit.
    ///   - weightsFromRight: repeating multipliers, the first one for the last payload digit.
    /// - Returns: the check digit, or `nil` if the payload is empty or holds a non-digit.
    public static func mod11Mod10(_ payload: String, weightsFromRight: [Int] = [1, 3, 7]) -> Int? {
        var payload = payload
        return payload.withUTF8 { mod11Mod10(bytes: $0, weightsFromRight: weightsFromRight) }
    }

    /// ``mod11Mod10(_:weightsFromRight:)`` over UTF-8 bytes.
    static func mod11Mod10(bytes: UnsafeBufferPointer<UInt8>, weightsFromRight: [Int]) -> Int? {
        guard !bytes.isEmpty, !weightsFromRight.isEmpty, bytes.allSatisfy(isDigit) else { return nil }
        var sum = 0
        for (index, byte) in bytes.reversed().enumerated() {
            sum += Int(byte - UInt8(ascii: "0")) * weightsFromRight[index % weightsFromRight.count]
        }
        return sum % 11 % 10
    }

    /// UPU S10 check digit for the 8-digit serial of an international postal item
    /// identifier (`RB123456785GB`): weights 8, 6, 4, 2, 3, 5, 9, 7; `11 − sum mod 11`, with
    /// 10 → 0 and 11 → 5.
    ///
    /// Source: UPU standard S10 "Identification of postal items – 13-character identifier",
    /// §5.
    /// - Parameter serial: exactly eight digits.
    /// - Returns: the check digit, or `nil` unless the serial is eight digits.
    public static func s10(_ serial: String) -> Int? {
        var serial = serial
        return serial.withUTF8 { s10(bytes: $0) }
    }

    /// ``s10(_:)`` over UTF-8 bytes.
    static func s10(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 8, bytes.allSatisfy(isDigit) else { return nil }
        var sum = 0
        for (index, weight) in [8, 6, 4, 2, 3, 5, 9, 7].enumerated() {
            sum += Int(bytes[index] - UInt8(ascii: "0")) * weight
        }
        let check = 11 - sum % 11
        switch check {
        case 10: return 0
        case 11: return 5
        default: return check
        }
    }

    /// ISO/IEC 7064 MOD 37,36 (hybrid system, M = 36): the check character of DPD's 28-character
    /// parcel label numbers, from the alphabet `0–9A–Z`.
    ///
    /// Source: ISO/IEC 7064:2003 §7 (hybrid systems); DPD Parcel Label Specification §2.4.
    /// - Parameter payload: digits and ASCII letters (either case).
    /// - Returns: the check character, or `nil` if the payload is empty or holds another
    ///   character.
    public static func iso7064Mod3736(_ payload: String) -> Character? {
        var payload = payload
        return payload.withUTF8 { iso7064Mod3736(bytes: $0) }.map { alphabet36[$0] }
    }

    /// ``iso7064Mod3736(_:)`` over UTF-8 bytes: the check character's position in `0–9A–Z`.
    static func iso7064Mod3736(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let modulus = 36
        guard !bytes.isEmpty else { return nil }
        var product = modulus
        for byte in bytes {
            guard let value = alphanumericValue(byte) else { return nil }
            var sum = (product + value) % modulus
            if sum == 0 { sum = modulus }
            product = (sum * 2) % (modulus + 1)
        }
        return (modulus + 1 - product) % modulus
    }

    /// Whether a printed check character matches the one the algorithm computes.
    /// - Parameters:
    ///   - payload: the characters the check digit protects.
    ///   - check: the printed check character (a digit, or a letter for MOD 37,36).
    ///   - algorithm: the algorithm and its parameters.
    /// - Returns: `true` when they match; `false` for any unreadable input.
    public static func isValid(_ payload: String, check: String, algorithm: CheckDigitAlgorithm) -> Bool {
        guard let expected = compute(payload, algorithm: algorithm) else { return false }
        return expected == check.uppercased()
    }

    /// The check character for a payload, as a string.
    /// - Parameters:
    ///   - payload: the characters the check digit protects.
    ///   - algorithm: the algorithm and its parameters.
    /// - Returns: the check character, or `nil` when the payload cannot be weighed.
    public static func compute(_ payload: String, algorithm: CheckDigitAlgorithm) -> String? {
        let prefixed = algorithm.prepend + payload
        switch algorithm.name {
        case .mod10:
            return weightedMod10(
                prefixed, weights: algorithm.weights ?? [3, 1], fromRight: algorithm.fromRight
            )
            .map(String.init)
        case .gs1: return gs1(prefixed).map(String.init)
        case .luhn: return luhn(prefixed).map(String.init)
        case .mod7: return mod7(prefixed).map(String.init)
        case .mod11Mod10:
            return mod11Mod10(prefixed, weightsFromRight: algorithm.weights ?? [1, 3, 7]).map(String.init)
        case .s10: return s10(prefixed).map(String.init)
        case .mod3736: return iso7064Mod3736(prefixed).map(String.init)
        }
    }

    /// ``isValid(_:check:algorithm:)`` for ASCII bytes the caller holds (the groups of a
    /// number matched by bytes): the same answer, without making a string. The computed check
    /// character is one ASCII digit or capital, so the printed one matches when it is that one
    /// byte, in either case.
    static func isValid(
        payload: UnsafeBufferPointer<UInt8>, check: UnsafeBufferPointer<UInt8>, algorithm: CheckDigitAlgorithm
    ) -> Bool {
        guard check.count == 1, let expected = checkCharacter(payload, algorithm: algorithm) else {
            return false
        }
        let printed = check[0]
        return expected
            == (printed >= UInt8(ascii: "a") && printed <= UInt8(ascii: "z") ? printed - 32 : printed)
    }

    /// ``compute(_:algorithm:)`` over UTF-8 bytes, as its one ASCII character.
    static func checkCharacter(_ payload: UnsafeBufferPointer<UInt8>, algorithm: CheckDigitAlgorithm)
        -> UInt8?
    {
        var prepend = algorithm.prepend
        return prepend.withUTF8 { prefix in
            // The prepended characters and the payload, side by side on the stack.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, prefix.count + payload.count)) {
                buffer -> UInt8? in
                for index in prefix.indices { buffer[index] = prefix[index] }
                for index in payload.indices { buffer[prefix.count + index] = payload[index] }
                let bytes = UnsafeBufferPointer(rebasing: buffer[0..<(prefix.count + payload.count)])
                let digit: Int?
                switch algorithm.name {
                case .mod10:
                    digit = weightedMod10(
                        bytes: bytes, weights: algorithm.weights ?? [3, 1], fromRight: algorithm.fromRight)
                case .gs1: digit = gs1(bytes: bytes)
                case .luhn: digit = luhn(bytes: bytes)
                case .mod7: digit = mod7(bytes: bytes)
                case .mod11Mod10:
                    digit = mod11Mod10(bytes: bytes, weightsFromRight: algorithm.weights ?? [1, 3, 7])
                case .s10: digit = s10(bytes: bytes)
                case .mod3736: return iso7064Mod3736(bytes: bytes).map { alphabet36Bytes[$0] }
                }
                return digit.map { UInt8(ascii: "0") + UInt8($0) }
            }
        }
    }

    private static let alphabet36: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let alphabet36Bytes: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    private static func alphanumericValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a")) + 10
        default: return nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A check-digit algorithm and its parameters, as a carrier rules file names it.
///
/// ```json5
/// checkDigit: { algorithm: "mod10", weights: [1, 2] }
/// checkDigit: { algorithm: "mod10", weights: [3, 1], prepend: "91" }
/// checkDigit: { algorithm: "mod11Mod10", weights: [1, 3, 7] }
/// ```
public struct CheckDigitAlgorithm: Sendable, Hashable, Decodable {
    public enum Name: String, Sendable, Hashable, Decodable, CaseIterable {
        case mod10, gs1, luhn, mod7, mod11Mod10, s10
        case mod3736 = "mod37_36"
    }

    public var name: Name
    /// Repeating weights (`mod10`: from the left unless `fromRight`; `mod11Mod10`: from the right).
    public var weights: [Int]?
    /// Apply `mod10` weights from the last payload character.
    public var fromRight: Bool
    /// Characters placed before the payload when computing (USPS "91", FedEx SmartPost "92").
    public var prepend: String

    public init(name: Name, weights: [Int]? = nil, fromRight: Bool = false, prepend: String = "") {
        self.name = name
        self.weights = weights
        self.fromRight = fromRight
        self.prepend = prepend
    }

    enum CodingKeys: String, CodingKey {
        case algorithm, weights, fromRight, prepend
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(Name.self, forKey: .algorithm)
        weights = try container.decodeIfPresent([Int].self, forKey: .weights)
        fromRight = try container.decodeIfPresent(Bool.self, forKey: .fromRight) ?? false
        prepend = try container.decodeIfPresent(String.self, forKey: .prepend) ?? ""
        if let weights, weights.isEmpty || weights.contains(where: { $0 < 0 || $0 > 100 }) {
            throw DecodingError.dataCorruptedError(
                forKey: .weights, in: container, debugDescription: "weights must be 0–100 and not empty")
        }
    }
}
