import Foundation
import Testing

@testable import WalletOrder

/// A throwaway CA ("WWDR"), and a signing certificate it issued, made with the `openssl` tool.
struct ThrowawayIdentity {
    var folder: URL
    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    var key: URL { folder.appendingPathComponent("key.pem") }
    var wwdr: URL { folder.appendingPathComponent("wwdr.pem") }
    var wwdrKey: URL { folder.appendingPathComponent("wwdr-key.pem") }

    init(subject: String = "/CN=order.com.example.test") throws {
        folder = try temporaryFolder("identity")
        let openssl = "/usr/bin/openssl"
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", wwdrKey.path, "-out", wwdr.path,
                "-days", "2", "-subj", "/CN=Test WWDR",
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                key.path, "-out",
                folder.appendingPathComponent("cert.csr").path, "-subj", subject,
            ],
            [
                "x509", "-req", "-in", folder.appendingPathComponent("cert.csr").path, "-CA", wwdr.path,
                "-CAkey",
                wwdrKey.path, "-CAcreateserial", "-out", certificate.path, "-days", "2",
            ],
        ]
        for step in steps {
            let (status, output) = try run(openssl, step, in: folder)
            guard status == 0 else { throw BundleError.signing("openssl \(step[0]) failed: \(output)") }
        }
    }
}

@Suite struct SigningTests {
    @Test func signatureMadeWithAThrowawayCertificateVerifiesWithOpenSSL() throws {
        let identity = try ThrowawayIdentity()
        let out = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: identity.folder)
            try? FileManager.default.removeItem(at: out)
        }
        let signing = try SigningIdentity(
            certificatePEM: identity.certificate, keyPEM: identity.key, wwdrPEM: identity.wwdr)
        let url = try BundleWriter(outputDirectory: out, zip: false, signing: signing)
            .write(fullOrder(), images: fullOrderImages)
        let signature = url.appendingPathComponent("signature")
        let manifest = url.appendingPathComponent("manifest.json")
        #expect(FileManager.default.fileExists(atPath: signature.path))

        let common = [
            "smime", "-verify", "-binary", "-inform", "DER", "-in", signature.path, "-content", manifest.path,
            "-out", "/dev/null",
        ]
        let (noVerify, output1) = try run("/usr/bin/openssl", common + ["-noverify"])
        #expect(noVerify == 0, "\(output1)")
        let (withCA, output2) = try run(
            "/usr/bin/openssl", common + ["-CAfile", identity.wwdr.path, "-purpose", "any"])
        #expect(withCA == 0, "\(output2)")

        // The WWDR certificate travels inside the signature.
        let (_, certificates) = try run(
            "/usr/bin/openssl", ["pkcs7", "-inform", "DER", "-in", signature.path, "-print_certs", "-noout"])
        #expect(certificates.contains("Test WWDR"))

        let report = BundleValidator().validate(at: url)
        #expect(report.passed, "\(report.issues)")
        #expect(!report.has(.unsigned))

        // The same bundle as a .order zip verifies too.
        let zipped = try BundleWriter(outputDirectory: out, zip: true, signing: signing)
            .write(fullOrder(), images: fullOrderImages)
        #expect(BundleValidator().validate(at: zipped).passed)
    }

    @Test func warnsWhenTheSignerIsForAnotherOrderType() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        for (uid, warns) in [("order.com.example.other", true), ("order.com.example.shop", false)] {
            let identity = try ThrowawayIdentity(subject: "/UID=\(uid)/CN=Order Type ID: \(uid)")
            defer { try? FileManager.default.removeItem(at: identity.folder) }
            let signing = try SigningIdentity(
                certificatePEM: identity.certificate, keyPEM: identity.key, wwdrPEM: identity.wwdr)
            let url = try BundleWriter(outputDirectory: out, zip: true, signing: signing)
                .write(fullOrder(), images: fullOrderImages)
            let report = BundleValidator().validate(at: url)
            #expect(report.passed)
            #expect(report.has(.signerCertificate) == warns, "\(report.issues)")
        }
    }

    @Test func tamperedManifestFailsSignatureCheck() throws {
        let identity = try ThrowawayIdentity()
        let out = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: identity.folder)
            try? FileManager.default.removeItem(at: out)
        }
        let signing = try SigningIdentity(
            certificatePEM: identity.certificate, keyPEM: identity.key, wwdrPEM: nil)
        let url = try BundleWriter(outputDirectory: out, zip: false, signing: signing).write(
            fullOrder(), images: fullOrderImages)
        let manifest = url.appendingPathComponent("manifest.json")
        var data = try Data(contentsOf: manifest)
        data.append(contentsOf: Array(" ".utf8))
        try data.write(to: manifest)
        let report = BundleValidator().validate(at: url)
        #expect(!report.passed)
        #expect(report.has(.badSignature))
    }

    @Test func mismatchedKeyAndMissingFilesAreReported() throws {
        let a = try ThrowawayIdentity()
        defer { try? FileManager.default.removeItem(at: a.folder) }
        #expect(throws: BundleError.self) {
            try SigningIdentity(certificatePEM: a.certificate, keyPEM: a.wwdrKey, wwdrPEM: nil)
        }
        #expect(throws: BundleError.self) {
            try SigningIdentity(certificatePEM: a.key, keyPEM: a.key, wwdrPEM: nil)
        }
        // An encrypted key fails at once rather than prompting for a passphrase.
        let encrypted = a.folder.appendingPathComponent("encrypted.pem")
        let (status, output) = try run(
            "/usr/bin/openssl",
            ["pkey", "-in", a.key.path, "-aes256", "-passout", "pass:secret", "-out", encrypted.path])
        #expect(status == 0, "\(output)")
        #expect(throws: BundleError.self) {
            try SigningIdentity(certificatePEM: a.certificate, keyPEM: encrypted, wwdrPEM: nil)
        }
        #expect(throws: BundleError.self) {
            try SigningIdentity(
                certificatePEM: a.folder.appendingPathComponent("missing.pem"), keyPEM: a.key, wwdrPEM: nil)
        }
    }
}
