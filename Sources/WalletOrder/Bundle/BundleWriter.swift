import CSystem
import Foundation

/// Writes an order as a Wallet order package: a folder `order.json` + `manifest.json`
/// (+ images, + `signature`), or the same files zipped as a `.order` file (Wallet Orders,
/// "Building a distributable order package"; `shared/wallet-orders.md` §2.1).
///
/// A bundle is written whole in the output folder's staging folder (``stagingFolderName``),
/// then put in place in one step: a `.order` file or a new folder by `rename(2)`, a folder that
/// replaces an older one by exchanging the two (Linux `renameat2(2)`, `RENAME_EXCHANGE`). A
/// reader, or a writer killed at any point, sees the old bundle or the new one, never a mix of
/// their files. Where the file system cannot exchange, the files are renamed into the old
/// folder one by one (each file whole, the set of them not). Writing the same order again
/// replaces its bundle.
///
/// Files are not flushed to the disk one by one (two `fsync(2)`s per bundle cost more than
/// the rest of writing it): after a run of writes, ``synchronize()`` flushes them all at
/// once, and a caller records the writes as done only after it returns.
public struct BundleWriter: Sendable {
    /// The folder that holds every bundle.
    public var outputDirectory: URL
    /// Write a `.order` zip file instead of a folder.
    public var zip: Bool
    /// Signs `manifest.json` when given.
    public var signing: SigningIdentity?

    /// The bundle size Wallet accepts at most (the whole package must stay below 5 MB).
    public static let maximumBundleSize = 5_000_000

    /// - Parameters:
    ///   - outputDirectory: Where bundles go; created when missing.
    ///   - zip: `true` for a `.order` file per order, `false` for a folder.
    ///   - signing: The identity that signs `manifest.json`, or `nil` for unsigned bundles.
    public init(outputDirectory: URL, zip: Bool, signing: SigningIdentity?) {
        self.outputDirectory = outputDirectory
        self.zip = zip
        self.signing = signing
    }

    /// Writes one order's bundle, replacing an earlier version of the same order.
    ///
    /// If the bundle already exists with a later `updatedAt`, that time is kept; if the order's
    /// content changed but its `updatedAt` did not move forward, it is set one second past the
    /// old one, so `updatedAt` always increases with every change (Wallet Orders: `Order.updatedAt`).
    ///
    /// - Parameters:
    ///   - order: The order.
    ///   - images: Image files by file name (e.g. `logo.png`), as `order.json` refers to them.
    /// - Returns: The bundle's folder, or its `.order` file.
    /// - Throws: `BundleError.unsafeFileName` for an image name that is not a plain file name,
    ///   `.tooLarge` over 5 MB, `.signing` when signing fails, `.io` when the disk refuses.
    @discardableResult
    public func write(_ order: Order, images: [String: Data] = [:]) throws(BundleError) -> URL {
        for name in images.keys where !BundleWriter.isSafeImageName(name) {
            throw .unsafeFileName(name)
        }
        try createDirectory(outputDirectory)
        let name = BundleWriter.bundleName(for: order)
        let destination =
            zip
            ? outputDirectory.appendingPathComponent(name + ".order")
            : outputDirectory.appendingPathComponent(name, isDirectory: true)

        var order = order
        let existing = existingFiles(at: destination)
        if let json = existing["order.json"], let previous = try? Order.decode(json) {
            order.updatedAt = BundleWriter.nextUpdatedAt(new: order, previous: previous)
        }

        let orderJSON: Data
        do {
            orderJSON = try order.jsonData()
        } catch {
            throw .encoding("\(error)")
        }
        var files: [(String, Data)] = images.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        files.append(("order.json", orderJSON))
        var manifest: [String: String] = [:]
        for (fileName, data) in files { manifest[fileName] = Crypto.sha256Hex(data) }
        let manifestJSON: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            manifestJSON = try encoder.encode(manifest)
        } catch {
            throw .encoding("\(error)")
        }
        files.append(("manifest.json", manifestJSON))
        if signing == nil, existing["signature"] == nil, existing["manifest.json"] == manifestJSON {
            // Unchanged: leave the bundle (and its modification time) alone, but finish what an
            // interrupted earlier run may have left.
            if !zip { removeStaleFiles(in: destination, keeping: Set(files.map(\.0))) }
            return destination
        }
        if let signing { files.append(("signature", try signing.sign(manifestJSON))) }

        let total = files.reduce(0) { $0 + $1.1.count }
        guard total < BundleWriter.maximumBundleSize else { throw .tooLarge(bytes: total) }

        // Once for all of this bundle's files (``writeAtomically(_:to:)`` writes there).
        try prepareFolder(outputDirectory.appendingPathComponent(Self.stagingFolderName))
        if zip {
            let archive = Zip.archive(files.map { Zip.Entry(name: $0.0, data: $0.1) })
            try writeAtomically(archive, to: destination)
        } else {
            try writeFolder(files, to: destination)
        }
        return destination
    }

    /// Writes `files` into a new folder in the staging folder, then puts it at `destination` in
    /// one step (see the type's description). The old folder, exchanged into the staging
    /// folder, is removed afterwards; a writer killed before that leaves it there, and
    /// ``removeAbandonedTemporaryFiles()`` removes it later.
    private func writeFolder(_ files: [(String, Data)], to destination: URL) throws(BundleError) {
        let staged = outputDirectory.appendingPathComponent(Self.stagingFolderName)
            .appendingPathComponent("\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        guard mkdir(staged.path, 0o755) == 0 else {
            throw .io(path: staged.path, reason: "cannot create folder: \(String(cString: strerror(errno)))")
        }
        let discard = { try? FileManager.default.removeItem(at: staged) }
        for (fileName, data) in files {
            if let reason = WalletOrder.write(data, toNewFile: staged.appendingPathComponent(fileName).path) {
                discard()
                throw .io(
                    path: destination.appendingPathComponent(fileName).path, reason: "cannot write: \(reason)"
                )
            }
        }
        var status = stat()
        if lstat(destination.path, &status) != 0 {
            if rename(staged.path, destination.path) == 0 { return }
            let code = errno
            discard()
            // A concurrent writer put the same bundle in place meanwhile: exchange with it below.
            guard code == EEXIST || code == ENOTEMPTY else {
                throw .io(path: destination.path, reason: "cannot create: \(String(cString: strerror(code)))")
            }
            return try writeFolder(files, to: destination)
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            discard()
            throw .io(path: destination.path, reason: "exists and is not a folder")
        }
        #if os(Linux)
            if renameat2(AT_FDCWD, staged.path, AT_FDCWD, destination.path, mailorders_RENAME_EXCHANGE) == 0 {
                // `staged` now holds the old bundle.
                discard()
                return
            }
            let code = errno
            guard code == EINVAL || code == ENOSYS else {
                discard()
                throw .io(
                    path: destination.path, reason: "cannot replace: \(String(cString: strerror(code)))")
            }
        #endif
        // No exchange on this file system: file by file into the old folder.
        discard()
        for (fileName, data) in files {
            try writeAtomically(data, to: destination.appendingPathComponent(fileName))
        }
        removeStaleFiles(in: destination, keeping: Set(files.map(\.0)))
    }

    // MARK: Names

    /// The bundle's file name (without `.order`): `<merchant>-<order number>-<hash>`.
    ///
    /// Only ASCII letters, digits, `.`, `_` and `-` survive; each part is bounded; the hash of
    /// the order type and order identifier keeps names unique and stable. Nothing in an order
    /// number (`/`, `..`, NUL, 500 characters) can leave the output folder.
    ///
    /// - Parameter order: The order.
    /// - Returns: A safe file name of at most 100 characters.
    public static func bundleName(for order: Order) -> String {
        let host = URL(string: order.merchant.url)?.host
        let merchantSource =
            host.flatMap { $0.hasSuffix(".invalid") ? nil : $0 } ?? order.merchant.displayName
        let merchant = slug(merchantSource, limit: 40) ?? "merchant"
        let number = slug(order.orderNumber ?? "shipment", limit: 40) ?? "order"
        let hash = Crypto.sha256Hex(Data((order.orderTypeIdentifier + "\n" + order.orderIdentifier).utf8))
        return "\(merchant)-\(number)-\(hash.prefix(10))"
    }

    /// Keeps `[A-Za-z0-9._-]`, turns runs of anything else into one `-`, collapses dots, trims
    /// `-` and `.` from both ends and cuts to `limit` characters.
    static func slug(_ text: String, limit: Int) -> String? {
        var out: [UInt8] = []
        for byte in text.utf8 {
            let isWord =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F
            let next: UInt8 = isWord ? byte : (byte == 0x2E ? 0x2E : 0x2D)
            if next == 0x2D || next == 0x2E, let last = out.last, last == 0x2D || last == 0x2E { continue }
            out.append(next)
            if out.count >= limit * 2 { break }
        }
        let trimmed = String(decoding: out, as: UTF8.self).trimmingCharacters(
            in: CharacterSet(charactersIn: "-."))
        let cut = String(trimmed.prefix(limit)).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return cut.isEmpty ? nil : cut
    }

    /// Whether an image file name is a plain name Wallet and every file system accept.
    static func isSafeImageName(_ name: String) -> Bool {
        guard name.utf8.count <= 100, !["order.json", "manifest.json", "signature"].contains(name),
            let first = name.utf8.first, first != 0x2E, first != 0x2D
        else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x40
        } && !name.contains("..")
    }

    // MARK: updatedAt

    /// The `updatedAt` to write: never before the previous one, and later than it when the
    /// content changed.
    static func nextUpdatedAt(new: Order, previous: Order) -> Date {
        if new.updatedAt > previous.updatedAt { return new.updatedAt }
        var same = new
        same.updatedAt = previous.updatedAt
        // Compare what would be written, so sub-millisecond differences do not count.
        if let a = try? same.jsonData(), let b = try? previous.jsonData(), a == b {
            return previous.updatedAt
        }
        return previous.updatedAt.addingTimeInterval(1)
    }

    /// The files of the bundle already at `destination` that matter for a rewrite:
    /// `order.json`, `manifest.json` and `signature` (empty when there is none or it is unreadable).
    private func existingFiles(at destination: URL) -> [String: Data] {
        let wanted: Set<String> = ["order.json", "manifest.json", "signature"]
        let manager = FileManager.default
        if zip {
            let size = (try? manager.attributesOfItem(atPath: destination.path))?[.size] as? NSNumber
            guard let size, size.intValue < 64 << 20, let archive = try? Data(contentsOf: destination),
                let entries = try? Zip.entries(of: archive)
            else { return [:] }
            var files: [String: Data] = [:]
            for entry in entries where wanted.contains(entry.name) { files[entry.name] = entry.data }
            return files
        }
        var files: [String: Data] = [:]
        for name in wanted {
            let url = destination.appendingPathComponent(name)
            let attributes = try? manager.attributesOfItem(atPath: url.path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular,
                let size = attributes?[.size] as? NSNumber, size.intValue < 16 << 20,
                let data = try? Data(contentsOf: url)
            else { continue }
            files[name] = data
        }
        return files
    }

    // MARK: Files

    private func createDirectory(_ url: URL) throws(BundleError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .io(path: url.path, reason: "cannot create folder: \(error.localizedDescription)")
        }
    }

    /// Makes sure `folder` is a real folder (not a symbolic link someone placed there).
    private func prepareFolder(_ folder: URL) throws(BundleError) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path)
        if let type = attributes?[.type] as? FileAttributeType {
            guard type == .typeDirectory else {
                throw .io(path: folder.path, reason: "exists and is not a folder")
            }
            return
        }
        // mkdir(2) directly: EEXIST means another writer (a concurrent scan of the same
        // output) made the folder between the check above and here, which is fine when it is
        // a real folder.
        if mkdir(folder.path, 0o755) != 0 {
            let code = errno
            var status = stat()
            if code == EEXIST, lstat(folder.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                return
            }
            throw .io(path: folder.path, reason: "cannot create folder: \(String(cString: strerror(code)))")
        }
    }

    /// How old a temporary file of ``writeAtomically(_:to:)`` must be before it is taken for
    /// the leftover of a killed writer and removed (a concurrent writer's is seconds old).
    static let abandonedTemporaryAge: TimeInterval = 3600

    /// The hidden folder in the output folder where files are written before they are renamed
    /// into their bundle: a writer killed mid-write leaves its temporary file there, never
    /// inside a bundle (where it would be a file the manifest does not list).
    public static let stagingFolderName = ".mailorders-staging"

    /// Removes regular files an earlier version left (an old image, a signature no longer
    /// made), and temporary files (`.NAME.UUID.tmp`) that writers before the staging folder
    /// left behind when killed before their rename, once they are ``abandonedTemporaryAge`` old.
    private func removeStaleFiles(in folder: URL, keeping: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where !keeping.contains(name) {
            let url = folder.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            if name.hasPrefix(".") {
                guard name.hasSuffix(".tmp"), let modified = attributes?[.modificationDate] as? Date,
                    Date().timeIntervalSince(modified) > Self.abandonedTemporaryAge
                else { continue }
            }
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Removes the temporary files and folders killed writers left in the staging folder (a
    /// bundle being written, or the old bundle it replaced), once they are
    /// ``abandonedTemporaryAge`` old (younger ones may belong to a writer still running).
    /// - Returns: how many files and folders were removed.
    @discardableResult
    public func removeAbandonedTemporaryFiles() -> Int {
        let staging = outputDirectory.appendingPathComponent(Self.stagingFolderName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: staging.path) else { return 0 }
        var removed = 0
        for name in names where name.hasSuffix(".tmp") {
            let url = staging.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let type = attributes?[.type] as? FileAttributeType
            guard type == .typeRegular || type == .typeDirectory,
                let modified = attributes?[.modificationDate] as? Date,
                Date().timeIntervalSince(modified) > Self.abandonedTemporaryAge
            else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    /// Flushes everything written to the output folder's file system to its device, once for
    /// any number of ``write(_:images:)`` calls before it (Linux `syncfs(2)`).
    ///
    /// Until it returns, a crash or power cut may leave a bundle file renamed into place but
    /// empty or short; a caller that records its writes as done (as `scan` moves its watermark)
    /// does so after this call, so that a run after a crash writes those bundles again.
    ///
    /// - Throws: ``BundleError/io(path:reason:)`` when the output folder cannot be opened or the
    ///   device reports a write error.
    public func synchronize() throws(BundleError) {
        let descriptor = open(outputDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .io(path: outputDirectory.path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        #if os(Linux)
            let flushed = syncfs(descriptor) == 0
        #else
            let flushed = fsync(descriptor) == 0
        #endif
        if !flushed {
            throw .io(
                path: outputDirectory.path,
                reason: "cannot flush to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `data` to a new temporary file in the staging folder, which the caller has made
    /// sure is a real folder (`NAME.UUID.tmp`, created
    /// exclusively, mode 0644 before the umask), then renames it over `url` (POSIX `rename(2)`
    /// replaces atomically within one file system, and the staging folder is in the output
    /// folder). Not flushed: see ``synchronize()``.
    func writeAtomically(_ data: Data, to url: URL) throws(BundleError) {
        let staging = outputDirectory.appendingPathComponent(Self.stagingFolderName)
        let temporary = staging.appendingPathComponent("\(url.lastPathComponent).\(UUID().uuidString).tmp")
        if let reason = WalletOrder.write(data, toNewFile: temporary.path) {
            unlink(temporary.path)
            throw .io(path: url.path, reason: "cannot write: \(reason)")
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .io(path: url.path, reason: "cannot replace: \(reason)")
        }
    }
}

/// Creates `path` (failing if it exists) and writes all of `data` to it.
/// - Returns: `nil`, or the system's reason for the failure.
private func write(_ data: Data, toNewFile path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    var failure: String?
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return
            }
            offset += written
        }
    }
    if close(descriptor) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
    return failure
}
