import Foundation

/// Checks any Wallet order bundle, ours or not, as a folder or a `.order` zip: files,
/// manifest hashes, size, signature, and `order.json` against the format
/// (`shared/wallet-orders.md` §1 and §2.1; Apple's troubleshooting checklist).
public struct BundleValidator: Sendable {
    /// Largest `.order` file read at all; anything bigger is reported, not loaded.
    public var maximumArchiveSize = 64 << 20

    public init() {}

    /// Validates one bundle. Never throws: every problem becomes an issue in the report.
    ///
    /// - Parameter url: A bundle folder or a `.order` (zip) file.
    /// - Returns: The report; `passed` is `true` when it has no error.
    public func validate(at url: URL) -> BundleValidationReport {
        var report = BundleValidationReport(bundle: url.path)
        let files: [String: Data]
        switch readBundle(at: url) {
        case .success(let read):
            files = read.files
            report.issues += read.issues
        case .failure(let issue):
            report.issues.append(issue)
            return report
        }
        report.issues += check(files: files)
        return report
    }

    /// Validates a `.order` archive already in memory, e.g. one attached to an email.
    ///
    /// - Parameters:
    ///   - archive: The zip bytes.
    ///   - name: What to call the bundle in the report (a file name or an origin).
    /// - Returns: The report; `passed` is `true` when it has no error.
    public func validate(archive: Data, name: String) -> BundleValidationReport {
        var report = BundleValidationReport(bundle: name)
        guard archive.count <= maximumArchiveSize else {
            report.issues.append(.init(.error, .tooLarge, "the archive is \(archive.count) bytes"))
            return report
        }
        do {
            var files: [String: Data] = [:]
            for entry in try Zip.entries(of: archive) { files[entry.name] = entry.data }
            report.issues += check(files: files)
        } catch {
            report.issues.append(.init(.error, .badArchive, error.description))
        }
        return report
    }

    /// Validates bundle files already in memory (relative path → bytes).
    func check(files: [String: Data]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []

        let total = files.values.reduce(0) { $0 + $1.count }
        if total >= BundleWriter.maximumBundleSize {
            issues.append(
                .init(.error, .tooLarge, "the bundle is \(total) bytes; Wallet requires under 5 MB"))
        }

        // manifest.json
        if let data = files["manifest.json"] {
            checkManifest(data, files: files, issues: &issues)
        } else {
            issues.append(.init(.error, .missingFile, at: "manifest.json", "manifest.json is missing"))
        }

        // signature
        if let signature = files["signature"] {
            if let manifestData = files["manifest.json"],
                let reason = Crypto.verifyDetached(signature: signature, content: manifestData)
            {
                issues.append(.init(.error, .badSignature, at: "signature", reason))
            }
        } else {
            issues.append(
                .init(.warning, .unsigned, at: "signature", "no signature: Wallet will not import it"))
        }

        // The signer's certificate must be current and, for an Order Type ID certificate, for
        // this order's type.
        if let signature = files["signature"], let signer = Crypto.signer(of: signature) {
            if signer.expired {
                issues.append(
                    .init(
                        .warning, .signerCertificate, at: "signature", "the signing certificate has expired"))
            }
            if let userID = signer.userID, let orderData = files["order.json"],
                case .object(let order)? = try? JSONDecoder().decode(JSONValue.self, from: orderData),
                case .string(let type)? = order["orderTypeIdentifier"], type != userID
            {
                issues.append(
                    .init(
                        .warning, .signerCertificate, at: "signature",
                        "signed by a certificate for \(userID.debugDescription), not \(type.debugDescription)"
                    ))
            }
        }

        // order.json
        guard let orderData = files["order.json"] else {
            issues.append(.init(.error, .missingFile, at: "order.json", "order.json is missing"))
            return issues
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: orderData)
        } catch {
            issues.append(.init(.error, .invalidJSON, at: "order.json", "not valid JSON: \(describe(error))"))
            return issues
        }
        var checker = SchemaChecker()
        checker.check(value, against: OrderSchema.order, at: "")
        issues += checker.issues
        issues += rules(value)
        let names = Set(files.keys)
        for reference in checker.fileReferences {
            let matches = BundleValidator.matches(names, image: reference.name)
            if matches.isEmpty {
                issues.append(
                    .init(
                        .error, .missingReference, at: reference.path,
                        "\(reference.name.debugDescription) is not a file in the bundle"))
            } else if reference.isImage {
                for name in matches where !BundleValidator.isPNGOrJPEG(files[name]) {
                    issues.append(
                        .init(
                            .warning, .imageFormat, at: name,
                            "not a PNG or JPEG image (Wallet shows PNG or JPEG)"))
                }
            }
        }
        return issues
    }

    /// Rules that span keys: schema version, dates in order, token with the web service,
    /// unique fulfillment identifiers.
    private func rules(_ value: JSONValue) -> [ValidationIssue] {
        guard case .object(let order) = value else { return [] }
        var issues: [ValidationIssue] = []
        if case .number(let version) = order["schemaVersion"], version != 1 {
            issues.append(
                .init(.error, .invalidValue, at: "schemaVersion", "schemaVersion must be 1, not \(version)"))
        }
        if case .string(let created) = order["createdAt"], case .string(let updated) = order["updatedAt"],
            let createdAt = WalletTime.parse(created), let updatedAt = WalletTime.parse(updated),
            updatedAt < createdAt
        {
            issues.append(.init(.error, .dateOrder, at: "updatedAt", "updatedAt is before createdAt"))
        }
        if order["webServiceURL"] != nil {
            switch order["authenticationToken"] {
            case .string(let token) where token.count < 16:
                issues.append(
                    .init(.error, .invalidValue, at: "authenticationToken", "must be at least 16 characters"))
            case nil:
                issues.append(
                    .init(
                        .error, .missingKey, at: "authenticationToken", "required when webServiceURL is given"
                    ))
            default: break
            }
        }
        for key in ["orderTypeIdentifier", "orderIdentifier"] {
            if case .string(let text) = order[key], text.isEmpty {
                issues.append(.init(.error, .invalidValue, at: key, "must not be empty"))
            }
        }
        if case .array(let fulfillments) = order["fulfillments"] {
            var seen = Set<String>()
            for (index, fulfillment) in fulfillments.enumerated() {
                guard case .object(let object) = fulfillment,
                    case .string(let identifier) = object["fulfillmentIdentifier"]
                else { continue }
                if !seen.insert(identifier).inserted {
                    issues.append(
                        .init(
                            .error, .invalidValue, at: "fulfillments[\(index)].fulfillmentIdentifier",
                            "duplicate fulfillmentIdentifier \(identifier.debugDescription)"))
                }
            }
        }
        return issues
    }

    private func checkManifest(_ data: Data, files: [String: Data], issues: inout [ValidationIssue]) {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            issues.append(.init(.error, .invalidJSON, at: "manifest.json", "not a JSON object"))
            return
        }
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard case .string(let hash) = value, hash.utf8.count == 64,
                hash.utf8.allSatisfy({
                    ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66)
                })
            else {
                issues.append(
                    .init(.error, .wrongType, at: "manifest.json: \(name)", "expected a SHA-256 hex string"))
                continue
            }
            guard let file = files[name] else {
                issues.append(
                    .init(
                        .error, .manifestMissingFile, at: name,
                        "listed in manifest.json but not in the bundle"))
                continue
            }
            if Crypto.sha256Hex(file) != hash.lowercased() {
                issues.append(.init(.error, .hashMismatch, at: name, "SHA-256 does not match manifest.json"))
            }
        }
        for name in files.keys.sorted() where name != "manifest.json" && name != "signature" {
            if object[name] == nil {
                issues.append(.init(.error, .unlistedFile, at: name, "file not listed in manifest.json"))
            }
        }
    }

    /// The bundle files an image name resolves to: at the top level, in a localization
    /// folder, or as an `@2x`/`@3x` variant.
    static func matches(_ names: Set<String>, image: String) -> [String] {
        let dot = image.lastIndex(of: ".")
        let stem = dot.map { String(image[..<$0]) } ?? image
        let ext = dot.map { String(image[$0...]) } ?? ""
        let variants = [image, stem + "@2x" + ext, stem + "@3x" + ext]
        return names.filter { name in
            let last = name.split(separator: "/").last.map(String.init) ?? name
            return variants.contains(last) && (name == last || name.hasSuffix(".lproj/" + last))
        }.sorted()
    }

    /// Whether `data` starts with the PNG signature or a JPEG SOI marker.
    static func isPNGOrJPEG(_ data: Data?) -> Bool {
        guard let data else { return false }
        let head = [UInt8](data.prefix(8))
        return head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            || head.starts(with: [0xFF, 0xD8, 0xFF])
    }

    // MARK: Reading

    private enum ReadOutcome {
        case success(ReadBundle)
        case failure(ValidationIssue)
    }

    private struct ReadBundle {
        var files: [String: Data]
        var issues: [ValidationIssue]
    }

    private func readBundle(at url: URL) -> ReadOutcome {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: url.path),
            let type = attributes[.type] as? FileAttributeType
        else {
            return .failure(.init(.error, .unreadable, "no such file or folder"))
        }
        if type == .typeDirectory { return readFolder(url) }
        guard type == .typeRegular else {
            return .failure(.init(.error, .unreadable, "neither a folder nor a regular file"))
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumArchiveSize else {
            return .failure(
                .init(.error, .tooLarge, "the archive is \(size) bytes; Wallet requires under 5 MB"))
        }
        guard let data = try? Data(contentsOf: url) else {
            return .failure(.init(.error, .unreadable, "cannot read the file"))
        }
        do {
            let entries = try Zip.entries(of: data)
            var files: [String: Data] = [:]
            for entry in entries { files[entry.name] = entry.data }
            return .success(ReadBundle(files: files, issues: []))
        } catch {
            return .failure(.init(.error, .badArchive, error.description))
        }
    }

    /// Reads a folder bundle: regular files only, at most 1000 files and 32 MB, no links.
    private func readFolder(_ root: URL) -> ReadOutcome {
        var files: [String: Data] = [:]
        var issues: [ValidationIssue] = []
        var total = 0
        var pending: [(URL, String, Int)] = [(root, "", 0)]
        let manager = FileManager.default
        while let (folder, prefix, depth) = pending.popLast() {
            guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else {
                return .failure(
                    .init(.error, .unreadable, at: prefix.isEmpty ? nil : prefix, "cannot list folder"))
            }
            for name in names.sorted() {
                let url = folder.appendingPathComponent(name)
                let relative = prefix + name
                let type = (try? manager.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
                switch type {
                case .typeDirectory?:
                    if depth >= 3 {
                        issues.append(.init(.error, .unsafePath, at: relative, "folders nested too deep"))
                    } else {
                        pending.append((url, relative + "/", depth + 1))
                    }
                case .typeRegular?:
                    guard files.count < 1000 else {
                        return .failure(.init(.error, .tooLarge, "more than 1000 files"))
                    }
                    let attributes = try? manager.attributesOfItem(atPath: url.path)
                    let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
                    total += size
                    guard total <= 32 << 20 else {
                        return .failure(
                            .init(.error, .tooLarge, "more than 32 MB of files; Wallet requires under 5 MB"))
                    }
                    guard let data = try? Data(contentsOf: url), data.count == size else {
                        issues.append(.init(.error, .unreadable, at: relative, "cannot read file"))
                        continue
                    }
                    files[relative] = data
                default:
                    issues.append(
                        .init(.error, .unsafePath, at: relative, "not a regular file (link or device)"))
                }
            }
        }
        return .success(ReadBundle(files: files, issues: issues))
    }

    private func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        }
        return "\(error)"
    }
}
