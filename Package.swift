// swift-tools-version:6.0
import PackageDescription

// Every Swift target builds in Swift 6 language mode with strict concurrency;
// warnings are treated as errors in CI (see .ci/run).
let package = Package(
    name: "mailorders",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "mailorders", targets: ["mailorders"]),
        .executable(name: "mailorders-bench", targets: ["mailorders-bench"]),
        .library(name: "MIME", targets: ["MIME"]),
        .library(name: "Mailbox", targets: ["Mailbox"]),
        .library(name: "MailDocument", targets: ["MailDocument"]),
        .library(name: "Extraction", targets: ["Extraction"]),
        .library(name: "OrderStore", targets: ["OrderStore"]),
        .library(name: "WalletOrder", targets: ["WalletOrder"]),
        .library(name: "MerchantCheck", targets: ["MerchantCheck"]),
    ],
    targets: [
        // C shims: nothing but headers and the thinnest glue over Debian's libraries.
        .target(
            name: "CCharset",
            linkerSettings: [
                .linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata"),
            ]
        ),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
        .systemLibrary(name: "CSystem"),

        // The pipeline, left to right.
        .target(name: "MIME", dependencies: ["CCharset"]),
        .target(name: "Mailbox", dependencies: ["MIME", "CSystem"]),
        .target(name: "MailDocument", dependencies: ["MIME", "CLibXML2", "CPSL", "CZlib"]),
        .target(name: "Extraction", dependencies: ["MailDocument"]),
        .target(name: "OrderStore", dependencies: ["Extraction", "CSQLite", "CCrypto"]),
        .target(name: "WalletOrder", dependencies: ["OrderStore", "CZlib", "CCrypto", "CSystem"]),
        .target(
            name: "MerchantCheck",
            dependencies: ["MIME", "Mailbox", "MailDocument", "Extraction", "WalletOrder"]),
        .executableTarget(
            name: "mailorders",
            dependencies: [
                "MIME", "Mailbox", "MailDocument", "Extraction", "OrderStore", "WalletOrder", "MerchantCheck",
                "CSystem",
            ]
        ),

        .executableTarget(
            name: "mailorders-bench",
            dependencies: [
                "MIME", "Mailbox", "MailDocument", "Extraction", "OrderStore", "WalletOrder", "CLibXML2",
            ]
        ),

        .testTarget(name: "MIMETests", dependencies: ["MIME"], exclude: ["Differential/python_email.py"]),
        .testTarget(name: "MailboxTests", dependencies: ["Mailbox"]),
        .testTarget(name: "MailDocumentTests", dependencies: ["MailDocument"]),
        .testTarget(name: "ExtractionTests", dependencies: ["Extraction"]),
        .testTarget(name: "OrderStoreTests", dependencies: ["OrderStore"]),
        .testTarget(name: "WalletOrderTests", dependencies: ["WalletOrder"]),
        .testTarget(name: "MerchantCheckTests", dependencies: ["MerchantCheck"]),
        .testTarget(name: "mailordersTests", dependencies: ["mailorders", "OrderStore"]),
    ],
    swiftLanguageModes: [.v6]
)
