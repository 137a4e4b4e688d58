import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4) of any bytes as lower-case hex: 64 characters. The digest of manifests
/// here, and the content hash the command line keys messages by.
/// - Parameter bytes: the bytes, e.g. a raw message.
/// - Returns: 64 lower-case hex digits.
public func sha256Hex(_ bytes: [UInt8]) -> String {
    // Hashed where the array keeps them: a copy into `Data` would cost as much as the hash.
    var digest = [UInt8](repeating: 0, count: 32)
    bytes.withUnsafeBufferPointer { buffer in _ = SHA256(buffer.baseAddress, buffer.count, &digest) }
    return Crypto.hex(digest)
}

/// SHA-256 and PKCS #7 through OpenSSL's libcrypto.
enum Crypto {
    /// The SHA-256 of `data` as lower-case hex (FIPS 180-4).
    static func sha256Hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in
            _ = SHA256(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &digest)
        }
        return hex(digest)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of OpenSSL's most recent errors, emptying its queue.
    static func lastError() -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            if messages.count >= 4 { break }
        }
        return messages.isEmpty ? "unknown OpenSSL error" : messages.joined(separator: "; ")
    }

    /// Runs `body` with a read-only memory BIO over `data`.
    static func withBIO<T>(_ data: Data, _ body: (OpaquePointer) -> T?) -> T? {
        data.withUnsafeBytes { raw -> T? in
            guard let base = raw.baseAddress, raw.count < Int(Int32.max),
                let bio = BIO_new_mem_buf(base, Int32(raw.count))
            else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func readCertificates(_ pem: Data) -> [OpaquePointer] {
        withBIO(pem) { bio -> [OpaquePointer] in
            var certificates: [OpaquePointer] = []
            while certificates.count < 16, let cert = PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil) {
                certificates.append(cert)
            }
            ERR_clear_error()
            return certificates
        } ?? []
    }

    static func readKey(_ pem: Data) -> OpaquePointer? {
        // The callback answers a passphrase prompt with nothing, so an encrypted key fails at
        // once instead of waiting for someone to type at the terminal.
        withBIO(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) }
    }

    /// A detached, binary PKCS #7 `signedData` over `content` in DER (RFC 2315 §9; RFC 5652 §5).
    static func signDetached(
        _ content: Data, certificatePEM: Data, keyPEM: Data, chainPEM: Data?
    ) throws(BundleError) -> Data {
        let certificates = readCertificates(certificatePEM)
        defer { for certificate in certificates { X509_free(certificate) } }
        guard let certificate = certificates.first else {
            throw .signing("no PEM certificate in the signing certificate file")
        }
        guard let key = readKey(keyPEM) else {
            throw .signing("no unencrypted PEM private key (decrypt it with `openssl pkey`): \(lastError())")
        }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else {
            throw .signing("the private key does not match the certificate")
        }
        let chain = chainPEM.map(readCertificates) ?? []
        defer { for certificate in chain { X509_free(certificate) } }
        if chainPEM != nil && chain.isEmpty { throw .signing("no PEM certificate in the WWDR file") }
        guard let stack = OPENSSL_sk_new_null() else { throw .signing(lastError()) }
        defer { OPENSSL_sk_free(stack) }
        for extra in chain + certificates.dropFirst() {
            _ = OPENSSL_sk_push(stack, UnsafeRawPointer(extra))
        }
        let flags = Int32(PKCS7_DETACHED | PKCS7_BINARY)
        let signature: Data? = withBIO(content) { bio -> Data? in
            guard let p7 = PKCS7_sign(certificate, key, stack, bio, flags) else { return nil }
            defer { PKCS7_free(p7) }
            let length = i2d_PKCS7(p7, nil)
            guard length > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_PKCS7(p7, &cursor)
            }
            return written == length ? Data(bytes) : nil
        }
        guard let signature else { throw .signing(lastError()) }
        return signature
    }

    /// Checks a detached DER PKCS #7 signature over `content`, without judging the certificate
    /// chain (the signer's certificate must be inside the signature).
    ///
    /// - Returns: `nil` when the signature verifies, else the reason.
    static func verifyDetached(signature: Data, content: Data) -> String? {
        let result: String?? = signature.withUnsafeBytes { raw -> String?? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else {
                return .some("the signature is empty")
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let p7 = d2i_PKCS7(nil, &cursor, raw.count) else {
                return .some("not a DER PKCS #7 structure: \(lastError())")
            }
            defer { PKCS7_free(p7) }
            let flags = Int32(PKCS7_NOVERIFY | PKCS7_BINARY)
            let ok = withBIO(content) { bio in PKCS7_verify(p7, nil, nil, bio, nil, flags) }
            if ok == 1 { return .some(nil) }
            return .some("the signature does not verify: \(lastError())")
        }
        return result ?? "cannot read the signature"
    }
}

extension Crypto {
    /// What a signature's signer certificate says: its subject `UID` (an Order Type ID
    /// certificate carries the order type identifier there) and whether it has expired.
    struct Signer: Sendable, Hashable {
        var userID: String?
        var expired: Bool
    }

    /// The first signer of a DER PKCS #7 signature, or `nil` when it cannot be read.
    static func signer(of signature: Data) -> Signer? {
        signature.withUnsafeBytes { raw -> Signer? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else {
                return nil
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let p7 = d2i_PKCS7(nil, &cursor, raw.count) else {
                ERR_clear_error()
                return nil
            }
            defer { PKCS7_free(p7) }
            guard let signers = PKCS7_get0_signers(p7, nil, 0) else {
                ERR_clear_error()
                return nil
            }
            defer { OPENSSL_sk_free(signers) }
            guard OPENSSL_sk_num(signers) > 0, let first = OPENSSL_sk_value(signers, 0) else { return nil }
            let certificate = OpaquePointer(first)
            var userID: String?
            if let name = X509_get_subject_name(certificate) {
                let index = X509_NAME_get_index_by_NID(name, NID_userId, -1)
                if index >= 0, let entry = X509_NAME_get_entry(name, index),
                    let value = X509_NAME_ENTRY_get_data(entry), let bytes = ASN1_STRING_get0_data(value)
                {
                    let length = Int(ASN1_STRING_length(value))
                    userID = String(
                        decoding: UnsafeBufferPointer(start: bytes, count: max(0, length)), as: UTF8.self)
                }
            }
            let notAfter = X509_get0_notAfter(certificate)
            let expired = notAfter.map { X509_cmp_current_time($0) < 0 } ?? false
            return Signer(userID: userID, expired: expired)
        }
    }
}

/// The Order Type ID certificate and key that sign `manifest.json`, with Apple's WWDR
/// intermediate when given (Wallet Orders, "Building a distributable order package").
public struct SigningIdentity: Sendable, Hashable {
    let certificatePEM: Data
    let keyPEM: Data
    let wwdrPEM: Data?

    /// Loads and checks the PEM files.
    ///
    /// - Parameters:
    ///   - certificatePEM: The signing certificate (PEM).
    ///   - keyPEM: Its private key (PEM, unencrypted).
    ///   - wwdrPEM: The WWDR intermediate certificate (PEM), added to the signature's chain.
    /// - Throws: `BundleError.io` when a file cannot be read, `.signing` when a file holds no
    ///   certificate or key, or the key does not belong to the certificate.
    public init(certificatePEM: URL, keyPEM: URL, wwdrPEM: URL?) throws(BundleError) {
        func read(_ url: URL) throws(BundleError) -> Data {
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
            }
        }
        self.certificatePEM = try read(certificatePEM)
        self.keyPEM = try read(keyPEM)
        self.wwdrPEM = try wwdrPEM.map { url throws(BundleError) in try read(url) }
        _ = try sign(Data("check".utf8))
    }

    /// Signs `content`: a detached PKCS #7 signature in DER, signing time included (RFC 5652 §11.3).
    ///
    /// - Parameter content: The bytes of `manifest.json`.
    /// - Returns: The DER bytes of the `signature` file.
    /// - Throws: `BundleError.signing` when OpenSSL refuses.
    public func sign(_ content: Data) throws(BundleError) -> Data {
        try Crypto.signDetached(content, certificatePEM: certificatePEM, keyPEM: keyPEM, chainPEM: wwdrPEM)
    }
}
