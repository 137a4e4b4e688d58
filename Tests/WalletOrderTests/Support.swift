import Foundation
import OrderStore

import struct Extraction.MonetaryAmount

@testable import WalletOrder

/// A fresh folder under the system's temporary folder.
func temporaryFolder(_ label: String = #function) throws -> URL {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("walletorder-\(safe)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Runs a program and returns its exit status and combined output.
@discardableResult
func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

func day(_ text: String) -> Date { WalletTime.parse(text) ?? Date(timeIntervalSince1970: 0) }

/// A stored order with a merchant, an order number, a total, items and one shipment.
func sampleStoredOrder(orderNumber: String? = "A-10023") -> StoredOrder {
    StoredOrder(
        id: 7, merchantKey: "example.com", merchantName: "Example Outfitters", merchantDomain: "example.com",
        orderNumber: orderNumber, status: .open, orderDate: day("2026-11-20T00:00:00Z"),
        firstMessageAt: day("2026-11-20T09:15:00Z"), lastMessageAt: day("2026-11-23T17:02:00Z"),
        total: MonetaryAmount(amount: "1234.56", currency: "USD"),
        lineItems: [.init(title: "Wool socks", quantity: 2, price: .init(amount: "12.30", currency: "USD"))],
        orderManagementURL: "https://example.com/orders/A-10023",
        fulfillments: [
            StoredFulfillment(
                id: 1, carrier: "UPS", trackingNumber: "1Z999AA10123456784",
                normalizedTrackingNumber: "1Z999AA10123456784", status: .onTheWay,
                estimatedDelivery: .init(from: "2026-11-24", until: "2026-11-26"),
                shippedAt: day("2026-11-22T10:00:00Z"))
        ],
        messageCount: 3)
}

/// An order that fills every field the model supports.
func fullOrder() -> Order {
    let address = Address(
        addressLines: ["1 Infinite Loop"], locality: "Cupertino", subLocality: "Monta Vista",
        administrativeArea: "CA", subAdministrativeArea: "Santa Clara", postalCode: "95014", countryCode: "US"
    )
    let price = CurrencyAmount(amount: Decimal(string: "12.30") ?? 0, currency: "USD")
    let item = LineItem(
        title: "Wool socks", quantity: 2, subtitle: "Grey", image: "socks.png", price: price,
        gtin: "00012345678905", sku: "SOCK-1")
    let recipient = ShippingFulfillment.Recipient(
        address: address, givenName: "Alex", familyName: "Doe", organizationName: "Doe Inc")
    return Order(
        orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "abc123", orderNumber: "A-10023",
        status: .open, statusDescription: "On its way", createdAt: day("2026-11-20T09:15:00Z"),
        updatedAt: day("2026-11-23T17:02:00.250Z"), orderManagementURL: "https://example.com/orders/A-10023",
        merchant: Merchant(
            displayName: "Example Outfitters", merchantIdentifier: "merchant.com.example",
            url: "https://example.com/", logo: "logo.png", address: address,
            businessChatURL: "https://bcrw.apple.com/example", contactURL: "https://example.com/help",
            emailAddress: "help@example.com", phoneNumber: "+1 555 0100"),
        customer: Customer(
            emailAddress: "a@example.org", familyName: "Doe", givenName: "Alex", organizationName: "Doe Inc",
            phoneNumber: "+1 555 0101"),
        lineItems: [item],
        fulfillments: [
            .shipping(
                ShippingFulfillment(
                    fulfillmentIdentifier: "ship-1", status: .onTheWay, shippingType: .delivery,
                    carrier: "UPS",
                    trackingNumber: "1Z999AA10123456784",
                    trackingURL: "https://www.ups.com/track?tracknum=1Z",
                    shippedAt: day("2026-11-22T10:00:00Z"), estimatedDeliveryAt: day("2026-11-24T00:00:00Z"),
                    estimatedDeliveryWindowDuration: "P3D", deliveredAt: nil, recipient: recipient,
                    lineItems: [item], notes: "Signature required", statusDescription: "In transit")),
            .pickup(
                PickupFulfillment(
                    fulfillmentIdentifier: "pick-1", displayName: "Main Street store",
                    status: .readyForPickup,
                    address: address, location: Location(latitude: 37.33, longitude: -122.03, altitude: 20),
                    barcode: Barcode(format: .qr, message: "PICK-1", altText: "PICK-1"),
                    pickupAt: day("2026-11-25T09:00:00Z"), pickupWindowDuration: "PT8H",
                    pickedUpAt: nil, lineItems: [item], notes: "Bring ID", statusDescription: "Ready")),
        ],
        payment: Payment(
            total: CurrencyAmount(amount: Decimal(string: "1234.56") ?? 0, currency: "USD"), status: .paid,
            summaryItems: [.init(label: "Subtotal", value: price)],
            transactions: [
                PaymentTransaction(
                    amount: price, createdAt: day("2026-11-20T09:15:00Z"),
                    paymentMethodDisplayName: "Visa 1234",
                    status: .completed, transactionType: .purchase, applePayTransactionIdentifier: "tx-1",
                    receipt: "receipt.pdf")
            ],
            paymentMethods: ["Visa 1234"], applePayTransactionIdentifiers: ["tx-1"]),
        returnInfo: ReturnInfo(
            returnPolicyURL: "https://example.com/returns", displayCountdown: true,
            returnDeadline: day("2026-12-20T00:00:00Z"), returnManagementURL: "https://example.com/r",
            returnPolicyDescription: "30 days"),
        returns: [
            Return(
                returnIdentifier: "ret-1", status: .open, carrier: "UPS",
                dropOffBy: day("2026-12-01T00:00:00Z"),
                initiatedAt: day("2026-11-25T00:00:00Z"), returnedAt: nil, lineItems: [item], notes: "Box it",
                returnLabel: "label.pdf", returnManagementURL: "https://example.com/r/1", returnNumber: "R1",
                statusDescription: "Started")
        ],
        barcode: Barcode(format: .code128, message: "A-10023"),
        associatedApplications: [Application(storeIdentifier: 123_456_789, launchURL: "example://orders")],
        associatedApplicationIdentifiers: ["ABCDE12345.com.example.app"], changeNotifications: .enabled,
        orderProvider: OrderProvider(
            displayName: "Shop Platform", url: "https://platform.example/",
            trackingLogoNameLightColorScheme: "light.png", trackingLogoNameDarkColorScheme: "dark.png"),
        webServiceURL: "https://example.com/wallet", authenticationToken: "0123456789abcdef0123")
}

/// The files `fullOrder()` refers to, as placeholder bytes.
let fullOrderImages: [String: Data] = [
    "logo.png": png("logo"), "socks.png": png("socks"), "receipt.pdf": Data("%PDF".utf8),
    "label.pdf": Data("%PDF label".utf8), "light.png": png("light"), "dark.png": png("dark"),
]

/// Bytes that start like a PNG file (the 8-byte signature), then `tag`.
func png(_ tag: String) -> Data {
    Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(tag.utf8)
}
