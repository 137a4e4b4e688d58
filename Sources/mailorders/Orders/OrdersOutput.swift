import Extraction
import Foundation
import Mailbox
import OrderStore

/// Renders orders for `mailorders orders [--json] [--unlinked]`.
///
/// Text: one line per order (id, merchant, order number, status, message count), then one
/// indented line per fulfillment (carrier, tracking number, status), then a count. Control
/// characters are shown as `\u{…}` escapes and long values are shortened, so hostile email
/// text cannot drive the terminal. JSON: one array of objects, keys sorted, absent when
/// unknown, dates in RFC 3339, full values.
///
/// - Parameters:
///   - orders: the orders to list, in the order given.
///   - json: JSON instead of text.
///   - origins: where each order's messages were found, by order id (`OrderStore.origins(orderID:)`);
///     listed as `messages` in JSON when given.
///   - unlinked: the list is `--unlinked`'s (carrier shipments without an order); only the
///     text said when it is empty changes.
/// - Returns: the output, ending in a newline.
func renderOrders(
    _ orders: [StoredOrder], json: Bool, origins: [Int64: [String]] = [:], unlinked: Bool = false
) -> String {
    json ? renderOrdersJSON(orders, origins: origins) : renderOrdersText(orders, unlinked: unlinked)
}

private func renderOrdersText(_ orders: [StoredOrder], unlinked: Bool) -> String {
    guard !orders.isEmpty else { return unlinked ? "No unlinked shipments.\n" : "No orders.\n" }
    var output = ""
    for order in orders {
        var merchant = order.merchantName ?? order.merchantDomain ?? ""
        if merchant.isEmpty { merchant = order.merchantKey }
        if merchant.isEmpty { merchant = "unknown merchant" }
        if let domain = order.merchantDomain, order.merchantName != nil, !domain.isEmpty {
            merchant += " (\(domain))"
        }
        let number = order.orderNumber.map { "order \(terminalSafe($0))" } ?? "shipment only"
        let messages = order.messageCount == 1 ? "1 message" : "\(order.messageCount) messages"
        output +=
            "#\(order.id)  \(terminalSafe(merchant))  \(number)  \(order.status.rawValue)  \(messages)\n"
        for fulfillment in order.fulfillments {
            var parts = [terminalSafe(fulfillment.carrier ?? "carrier unknown")]
            parts.append(terminalSafe(fulfillment.trackingNumber ?? "no tracking number"))
            parts.append(fulfillment.status.rawValue)
            if fulfillment.status != .delivered, let window = fulfillment.estimatedDelivery {
                let days = window.from == window.until ? window.from : "\(window.from)–\(window.until)"
                parts.append("expected \(terminalSafe(days))")
            }
            output += "    " + parts.joined(separator: "  ") + "\n"
        }
    }
    let shipmentOnly = orders.filter(\.isShipmentOnly).count
    let ordersCount = orders.count - shipmentOnly
    var summary = ordersCount == 1 ? "1 order" : "\(ordersCount) orders"
    if shipmentOnly > 0 {
        summary += shipmentOnly == 1 ? ", 1 shipment-only record" : ", \(shipmentOnly) shipment-only records"
    }
    return output + summary + "\n"
}

/// A value for one terminal line: control characters escaped, at most 120 characters.
private func terminalSafe(_ text: String) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count >= 120 {
            result += "…"
            break
        }
        let category = scalar.properties.generalCategory
        let joiner = scalar.value == 0x200C || scalar.value == 0x200D  // kept: emoji sequences need them
        // Controls as every command writes them (``TerminalText/oneLine(_:)``); other
        // invisible format characters in the same form.
        if TerminalText.needsEscape(scalar) || scalar.value == 0x0A || scalar.value == 0x0D
            || scalar.value == 0x09
        {
            result += TerminalText.oneLine(String(scalar))
        } else if category == .format && !joiner {
            result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return result
}

private struct OrderJSON: Encodable {
    struct FulfillmentJSON: Encodable {
        var id: Int64
        var carrier: String?
        var trackingNumber: String?
        var trackingURL: String?
        var status: String
        var statusAt: String?
        var estimatedDelivery: DateWindow?
        var shippedAt: String?
        var deliveredAt: String?
    }
    var id: Int64
    var merchantKey: String
    var merchantName: String?
    var merchantDomain: String?
    var orderNumber: String?
    var shipmentOnly: Bool
    var status: String
    var orderDate: String?
    var firstMessageAt: String?
    var lastMessageAt: String?
    var total: MonetaryAmount?
    var lineItems: [LineItem]?
    var orderManagementURL: String?
    var messageCount: Int
    var messages: [String]?
    var fulfillments: [FulfillmentJSON]
}

private func renderOrdersJSON(_ orders: [StoredOrder], origins: [Int64: [String]]) -> String {
    guard !orders.isEmpty else { return "[]\n" }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let stamp = { (date: Date?) in date.map { formatter.string(from: $0) } }
    let objects = orders.map { order in
        OrderJSON(
            id: order.id, merchantKey: order.merchantKey, merchantName: order.merchantName,
            merchantDomain: order.merchantDomain, orderNumber: order.orderNumber,
            shipmentOnly: order.isShipmentOnly,
            status: order.status.rawValue, orderDate: order.orderDay,
            firstMessageAt: stamp(order.firstMessageAt),
            lastMessageAt: stamp(order.lastMessageAt), total: order.total,
            lineItems: order.lineItems.isEmpty ? nil : order.lineItems,
            orderManagementURL: order.orderManagementURL,
            messageCount: order.messageCount, messages: origins[order.id],
            fulfillments: order.fulfillments.map { fulfillment in
                OrderJSON.FulfillmentJSON(
                    id: fulfillment.id, carrier: fulfillment.carrier,
                    trackingNumber: fulfillment.trackingNumber,
                    trackingURL: fulfillment.trackingURL, status: fulfillment.status.rawValue,
                    statusAt: stamp(fulfillment.statusAt), estimatedDelivery: fulfillment.estimatedDelivery,
                    shippedAt: stamp(fulfillment.shippedAt), deliveredAt: stamp(fulfillment.deliveredAt))
            })
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(objects) else { return "[]\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
}

/// What `orders --json` prints instead of the list when a fatal error stops it:
/// `{"error": "…", "exitCode": 2}`, as `scan --json` names a fatal error; `inspect --json`
/// prints it too after a usage error (`exitCode` 64).
/// - Parameters:
///   - error: why, on one line.
///   - exitCode: the exit status the run ends with.
func fatalErrorJSON(_ error: String, exitCode: Int32 = ExitCode.fatal) -> String {
    canonicalJSON(["error": error, "exitCode": Int(exitCode)]) + "\n"
}
