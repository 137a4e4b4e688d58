import Foundation

/// What `mailorders validate` found in one bundle.
public struct BundleValidationReport: Codable, Sendable, Hashable {
    /// The bundle's path as given.
    public var bundle: String
    /// Every problem found, errors and warnings, in the order they were found.
    public var issues: [ValidationIssue]

    public init(bundle: String, issues: [ValidationIssue] = []) {
        self.bundle = bundle
        self.issues = issues
    }

    /// `true` when there is no error (warnings do not fail a bundle).
    public var passed: Bool { !issues.contains { $0.severity == .error } }
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    /// Whether the bundle has an issue of this kind.
    public func has(_ code: ValidationIssue.Code) -> Bool { issues.contains { $0.code == code } }

    enum CodingKeys: String, CodingKey {
        case bundle, passed, issues
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bundle = try c.decode(String.self, forKey: .bundle)
        issues = try c.decode([ValidationIssue].self, forKey: .issues)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bundle, forKey: .bundle)
        try c.encode(passed, forKey: .passed)
        try c.encode(issues, forKey: .issues)
    }
}

extension [BundleValidationReport] {
    /// `true` when every bundle passed: the `validate` command exits 0 exactly then, else 1.
    public var allPassed: Bool { allSatisfy(\.passed) }
}

/// One problem in a bundle.
public struct ValidationIssue: Codable, Sendable, Hashable {
    public enum Severity: String, Codable, Sendable, Hashable {
        case error, warning
    }

    /// The class of problem; stable names for scripts.
    public enum Code: String, Codable, Sendable, Hashable, CaseIterable {
        /// The bundle cannot be read (missing, unreadable, neither folder nor zip).
        case unreadable
        /// The `.order` zip is malformed, unsafe (`../` names), or over a safety limit.
        case badArchive
        /// A required file (`order.json`, `manifest.json`) is missing.
        case missingFile
        /// A file is not valid JSON or not a JSON object.
        case invalidJSON
        /// A required key is absent.
        case missingKey
        /// A value has the wrong JSON type.
        case wrongType
        /// A string is not one of the enumeration's values.
        case invalidEnum
        /// A date is not RFC 3339.
        case invalidDate
        /// A duration is not ISO 8601-1.
        case invalidDuration
        /// A URL is not an absolute URL.
        case invalidURL
        /// A URL that must be `https` is not.
        case httpsRequired
        /// A value is out of its range or breaks a rule (schema version, code length, token length).
        case invalidValue
        /// `updatedAt` is before `createdAt`.
        case dateOrder
        /// A file's SHA-256 differs from `manifest.json`.
        case hashMismatch
        /// `manifest.json` lists a file the bundle lacks.
        case manifestMissingFile
        /// The bundle has a file `manifest.json` does not list.
        case unlistedFile
        /// `order.json` names an image or file the bundle lacks.
        case missingReference
        /// The bundle is 5 MB or more.
        case tooLarge
        /// The signature does not verify against `manifest.json`.
        case badSignature
        /// There is no signature (Wallet needs one; fine for local use).
        case unsigned
        /// A symbolic link or other non-regular file in a folder bundle.
        case unsafePath
        /// A key the format does not define (kept, but possibly a typo).
        case unknownKey
        /// An image `order.json` refers to is neither PNG nor JPEG.
        case imageFormat
        /// The signing certificate has expired, or is for another order type identifier.
        case signerCertificate
    }

    public var severity: Severity
    public var code: Code
    /// Where: a JSON path such as `fulfillments[0].status`, or a file name.
    public var location: String?
    public var message: String

    public init(_ severity: Severity, _ code: Code, at location: String? = nil, _ message: String) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
    }
}
