/// Makes valid-looking tracking numbers with correct check digits, for tests and for
/// writing corpus emails. Deterministic: the same carrier and seed give the same number.
///
/// ```swift
/// TrackingNumberGenerator.make(carrierID: "ups", seed: 1)     // "1Z…" with a valid check digit
/// TrackingNumberGenerator.make(carrierID: "upu-ch", seed: 7)  // a Swiss Post S10 number
/// ```
public enum TrackingNumberGenerator {
    /// Carrier ids ``make(carrierID:seed:)`` knows, besides `upu-<country>`.
    public static let supportedCarrierIDs: [String] = [
        "ups", "fedex", "usps", "dhl-express", "dhl-paket", "dhl-ecommerce", "deutsche-post",
        "amazon-logistics",
        "ontrac", "lasership", "canada-post", "purolator", "dpd", "royal-mail", "la-poste", "chronopost",
        "correos", "poste-italiane", "postnl", "australia-post", "hermes", "evri", "gls", "seur", "brt",
        "inpost", "cj-logistics", "hanjin", "lotte", "korea-post", "logen", "yamato", "sagawa", "japan-post",
        "sf-express", "zto", "yto", "china-post", "jt-express", "yodel", "colissimo", "estafeta", "jadlog",
    ]

    /// A tracking number for a carrier.
    /// - Parameters:
    ///   - carrierID: a carrier id from the rules (`ups`, `cj-logistics`) or `upu-<country>`
    ///     for a postal operator's S10 number.
    ///   - seed: any number; each seed gives another number.
    /// - Returns: the number (no spaces), or `nil` for an unknown carrier.
    public static func make(carrierID: String, seed: Int) -> String? {
        var random = SplitMix64(seed: UInt64(bitPattern: Int64(seed)) &+ fnv1a(carrierID))
        for _ in 0..<16 {
            guard let number = candidate(carrierID: carrierID, random: &random) else { return nil }
            if !TrackingSearch.isPlaceholder(Array(number.utf8)) { return number }
        }
        return nil
    }

    private static func candidate(carrierID: String, random: inout SplitMix64) -> String? {
        func digits(_ count: Int) -> String { String((0..<count).map { _ in random.digit() }) }
        func s10(_ service: String, _ country: String) -> String {
            let serial = digits(8)
            return service + serial + String(CheckDigit.s10(serial) ?? 0) + country
        }
        func withCheck(_ payload: String, _ check: Int?) -> String { payload + String(check ?? 0) }
        switch carrierID {
        case "ups":
            let letters = Array("ABCDEFGHJKLMNPRSTUVWXY0123456789")
            let shipper = String((0..<6).map { _ in letters[random.below(letters.count)] })
            let payload = shipper + ["01", "02", "03", "12", "13"][random.below(5)] + digits(7)
            return "1Z" + withCheck(payload, CheckDigit.weightedMod10(payload, weights: [1, 2]))
        case "fedex":
            let payload = ["7", "8"][random.below(2)] + digits(10)
            return withCheck(payload, CheckDigit.mod11Mod10(payload))
        case "usps":
            let payload = ["9400", "9205", "9361", "9405"][random.below(4)] + digits(17)
            return withCheck(payload, CheckDigit.weightedMod10(payload, weights: [3, 1]))
        case "dhl-express":
            let payload = String(random.below(9) + 1) + digits(8)
            return withCheck(payload, CheckDigit.mod7(payload))
        case "dhl-paket":
            let payload = "340434" + digits(11)
            return "00" + withCheck(payload, CheckDigit.gs1(payload))
        case "dhl-ecommerce": return "GM" + digits(16)
        case "deutsche-post": return s10("RR", "DE")
        case "amazon-logistics": return "TBA" + String(random.below(9) + 1) + digits(11)
        case "ontrac":
            let payload = "C" + digits(13)
            return withCheck(payload, CheckDigit.weightedMod10(payload, weights: [1, 2]))
        case "lasership": return "1LS7" + String(random.below(2) + 1) + digits(10)
        case "canada-post": return s10(["RR", "CP", "LM"][random.below(3)], "CA")
        case "purolator":
            let payload = String(random.below(3) + 3) + digits(10)
            return withCheck(payload, CheckDigit.luhn(payload))
        case "dpd":
            let payload = digits(27)
            return payload + String(CheckDigit.iso7064Mod3736(payload) ?? "0")
        case "royal-mail": return s10(["RR", "TT", "LT"][random.below(3)], "GB")
        case "la-poste": return s10(["RR", "CB", "LA"][random.below(3)], "FR")
        case "chronopost": return s10(["XW", "XA", "EE"][random.below(3)], "FR")
        case "correos": return s10(["RR", "CD", "PQ"][random.below(3)], "ES")
        case "poste-italiane": return s10(["RR", "CP", "RA"][random.below(3)], "IT")
        case "postnl":
            let letters = Array("ABCDEFGHJKLMNPRSTUVWXYZ")
            return "3S" + String((0..<4).map { _ in letters[random.below(letters.count)] }) + digits(9)
        case "australia-post": return s10(["RR", "CP", "LM"][random.below(3)], "AU")
        case "hermes": return "H" + digits(19)
        case "evri": return "H" + digits(15)
        case "gls": return String(random.below(9) + 1) + digits(10)
        case "seur": return "0" + digits(13)
        case "brt": return "0" + digits(14)
        case "inpost": return "6" + digits(23)
        case "cj-logistics", "hanjin", "lotte", "jt-express":
            return String(random.below(5) + 5) + digits(11)
        case "korea-post": return String(random.below(4) + 6) + digits(12)
        case "logen": return String(random.below(9) + 1) + digits(10)
        case "yamato", "sagawa":
            let payload = String(random.below(8) + 2) + digits(10)
            return withCheck(payload, CheckDigit.mod7(payload))
        case "japan-post": return s10(["RR", "EJ", "CP"][random.below(3)], "JP")
        case "sf-express": return "SF" + String(random.below(9) + 1) + digits(12)
        case "zto": return "7" + String(random.below(9) + 1) + digits(12)
        case "yto": return "YT" + String(random.below(9) + 1) + digits(12)
        case "china-post": return s10(["LX", "RR", "EA", "CP"][random.below(4)], "CN")
        case "yodel": return "JJD" + "000" + digits(13)
        case "colissimo": return ["6A", "8R", "6C"][random.below(3)] + digits(11)
        case "estafeta": return String(random.below(9) + 1) + digits(21)
        case "jadlog": return "1" + digits(13)
        default:
            if carrierID.hasPrefix("upu-"), carrierID.count == 6 {
                return s10(["RR", "CP", "LX", "EE"][random.below(4)], carrierID.suffix(2).uppercased())
            }
            return nil
        }
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

/// A small deterministic random source (SplitMix64, Steele, Lea & Flood 2014).
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func digit() -> Character { Character(String(below(10))) }
}
