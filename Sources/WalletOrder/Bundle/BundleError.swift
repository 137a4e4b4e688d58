import Foundation

/// Why a bundle could not be written or a signing identity could not be loaded.
public enum BundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file or folder could not be read or written.
    case io(path: String, reason: String)
    /// A file name given for the bundle is not a plain, safe name.
    case unsafeFileName(String)
    /// The order could not be encoded as JSON.
    case encoding(String)
    /// OpenSSL refused a certificate, a key or the signature.
    case signing(String)
    /// The bundle would exceed Wallet's 5 MB limit.
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .io(let path, let reason): return "\(path): \(reason)"
        case .unsafeFileName(let name): return "unsafe file name in bundle: \(name.debugDescription)"
        case .encoding(let reason): return "cannot encode order.json: \(reason)"
        case .signing(let reason): return "signing failed: \(reason)"
        case .tooLarge(let bytes): return "bundle would be \(bytes) bytes, over the 5 MB limit"
        }
    }
}
