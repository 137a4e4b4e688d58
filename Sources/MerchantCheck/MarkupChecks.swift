import Extraction
import Foundation
import MailDocument

/// Checks of schema.org Order and ParcelDelivery markup (JSON-LD or microdata).
///
/// Required properties follow Gmail's email markup reference for `Order` and `ParcelDelivery`;
/// status values are schema.org's `OrderStatus` enumeration.
extension MerchantEmailChecker {
    /// Properties Gmail requires of an `Order` (`merchant` after `seller`/`vendor` folding).
    static let requiredOrderProperties = [
        "merchant", "orderNumber", "priceCurrency", "price", "acceptedOffer",
    ]
    /// Properties Gmail requires of a `ParcelDelivery` (`carrier` after `provider` folding).
    static let requiredDeliveryProperties = [
        "carrier", "partOfOrder", "deliveryAddress", "expectedArrivalUntil", "itemShipped",
    ]
    /// Properties Gmail requires of the `partOfOrder` of a `ParcelDelivery`.
    static let requiredPartOfOrderProperties = ["orderNumber", "merchant"]
    /// schema.org `OrderStatus` values.
    static let orderStatuses: Set<String> = [
        "OrderCancelled", "OrderDelivered", "OrderInTransit", "OrderPaymentDue", "OrderPickupAvailable",
        "OrderProblem", "OrderProcessing", "OrderReturned",
    ]

    func markupFindings(document: MailDocument, extraction: ExtractionResult, text: EmailText) -> [Finding] {
        let syntax = Self.jsonLDSyntaxFindings(document)
        return syntax
            + schemaFindings(
                document: document, extraction: extraction, text: text, hasBlocks: !syntax.isEmpty)
    }

    /// JSON-LD blocks a strict JSON parser rejects (the document stage repairs what it can;
    /// other readers do not).
    static func jsonLDSyntaxFindings(_ document: MailDocument) -> [Finding] {
        var findings: [Finding] = []
        for block in document.jsonLDBlocks.prefix(20) {
            let data = Data(block.text.utf8)
            guard !block.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
                    || hasTrailingComma(block.text)
            else { continue }
            let excerpt = String(block.text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80))
            findings.append(
                FindingCode.markupNotValidJSON.finding(
                    "The JSON-LD block at \(block.location) (part \(block.partPath)) is not valid JSON.",
                    evidence: excerpt))
        }
        return findings
    }

    /// Whether a comma is followed by `}` or `]` outside strings: Foundation's parser accepts
    /// it, RFC 8259 §2 does not.
    static func hasTrailingComma(_ text: String) -> Bool {
        var inString = false
        var escaped = false
        var pendingComma = false
        for byte in text.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                pendingComma = false
            case UInt8(ascii: ","):
                pendingComma = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if pendingComma { return true }
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                pendingComma = false
            }
        }
        return false
    }

    private func schemaFindings(
        document: MailDocument, extraction: ExtractionResult, text: EmailText, hasBlocks: Bool
    ) -> [Finding] {
        let orders = document.structuredData.filter { Self.bareType($0.type) == "Order" }
        let deliveries = document.structuredData.filter { Self.bareType($0.type) == "ParcelDelivery" }
        if orders.isEmpty && deliveries.isEmpty {
            guard document.attachedOrders.isEmpty, extraction.kind != .notAnOrder, !hasBlocks else {
                return []
            }
            let suggestion = Self.shippingKinds.contains(extraction.kind) ? "ParcelDelivery" : "Order"
            return [
                FindingCode.markupAbsent.finding(
                    "The email has no schema.org \(suggestion) markup; readers must guess from the text.")
            ]
        }
        var findings: [Finding] = []
        for order in orders {
            for property in Self.requiredOrderProperties where Self.isMissing(order.properties[property]) {
                findings.append(
                    FindingCode.markupMissingProperty.finding(
                        "The schema.org Order (\(order.origin)) has no \(property).", evidence: property))
            }
            if let merchant = Self.object(order.properties["merchant"]), Self.isMissing(merchant["name"]) {
                findings.append(
                    FindingCode.markupMissingProperty.finding(
                        "The schema.org Order's merchant (\(order.origin)) has no name.",
                        evidence: "merchant.name"))
            }
        }
        for delivery in deliveries {
            for property in Self.requiredDeliveryProperties
            where Self.isMissing(delivery.properties[property]) {
                findings.append(
                    FindingCode.markupMissingProperty.finding(
                        "The schema.org ParcelDelivery (\(delivery.origin)) has no \(property).",
                        evidence: property))
            }
            if let order = Self.object(delivery.properties["partOfOrder"]) {
                for property in Self.requiredPartOfOrderProperties where Self.isMissing(order[property]) {
                    findings.append(
                        FindingCode.markupMissingProperty.finding(
                            "The schema.org ParcelDelivery's partOfOrder (\(delivery.origin)) has no \(property).",
                            evidence: "partOfOrder.\(property)"))
                }
            }
        }

        // Status values anywhere in the markup.
        var statuses: [String] = []
        for object in orders + deliveries {
            Self.collectValues(of: "orderStatus", in: .object(object.properties), into: &statuses)
        }
        for status in Set(statuses).sorted() {
            let name = status.split(separator: "/").last.map(String.init) ?? status
            if !Self.orderStatuses.contains(name) {
                findings.append(
                    FindingCode.markupUnknownStatus.finding(
                        "The markup's orderStatus \"\(status)\" is not a schema.org OrderStatus.",
                        evidence: status))
            }
        }

        // Tracking numbers in markup that the body contradicts.
        let bodyTrackingNumbers = visibleTrackingNumbers(extraction: extraction, text: text)
        for delivery in deliveries {
            guard let number = Self.string(delivery.properties["trackingNumber"]),
                !text.visibleContains(number: number)
            else { continue }
            let others = bodyTrackingNumbers.filter { EmailText.compact($0) != EmailText.compact(number) }
            if let other = others.first {
                findings.append(
                    FindingCode.markupTrackingNumberDiffers.finding(
                        "The markup says tracking number \(number), the body says \(other).", evidence: number
                    ))
            }
        }

        // Order numbers in markup that the body contradicts.
        var markupOrderNumbers: [String] = orders.compactMap { Self.string($0.properties["orderNumber"]) }
        markupOrderNumbers += deliveries.compactMap {
            Self.object($0.properties["partOfOrder"]).flatMap { Self.string($0["orderNumber"]) }
        }
        if let bodyNumber = extraction.orderNumber, text.visibleContains(number: bodyNumber) {
            for number in Set(markupOrderNumbers).sorted()
            where EmailText.compact(number) != EmailText.compact(bodyNumber)
                && !text.visibleContains(number: number)
            {
                findings.append(
                    FindingCode.markupOrderNumberDiffers.finding(
                        "The markup says order number \(number), the body says \(bodyNumber).",
                        evidence: number))
            }
        }
        return findings
    }

    /// Tracking numbers printed in the visible text: the extracted ones that appear there,
    /// and numbers matching a carrier format with a valid check digit.
    private func visibleTrackingNumbers(extraction: ExtractionResult, text: EmailText) -> [String] {
        var numbers = (extraction.shipments ?? []).compactMap(\.trackingNumber).filter {
            text.visibleContains(number: $0)
        }
        guard let regex = Self.alphanumericRun else { return numbers }
        let visible = text.visible as NSString
        var seen = 0
        regex.enumerateMatches(in: text.visible, range: NSRange(location: 0, length: visible.length)) {
            match, _, stop in
            guard let match else { return }
            seen += 1
            if seen > Self.maximumRuns { stop.pointee = true }
            let candidate = visible.substring(with: match.range).uppercased()
            if formats.matches(candidate).contains(where: { $0.checkDigitValid == true }) {
                numbers.append(candidate)
            }
        }
        return numbers
    }

    private static let alphanumericRun = try? NSRegularExpression(
        pattern: "(?<![A-Za-z0-9])(?=[A-Za-z]*[0-9])[A-Za-z0-9]{8,40}(?![A-Za-z0-9])")
    private static let maximumRuns = 5_000

    static func bareType(_ type: String) -> String {
        type.split(separator: "/").last.map(String.init) ?? type
    }

    static func isMissing(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null: true
        case .string(let text): text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .array(let values): values.allSatisfy { isMissing($0) }
        default: false
        }
    }

    static func object(_ value: JSONValue?) -> [String: JSONValue]? {
        switch value {
        case .object(let object): object
        case .array(let values): values.lazy.compactMap { object($0) }.first
        default: nil
        }
    }

    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .array(let values): return values.lazy.compactMap { string($0) }.first
        case .object(let object): return string(object["name"]) ?? string(object["@id"])
        default: return nil
        }
    }

    /// Every string value of a key, at any depth (bounded).
    static func collectValues(
        of key: String, in value: JSONValue, into values: inout [String], depth: Int = 0
    ) {
        guard depth < 16, values.count < 100 else { return }
        switch value {
        case .object(let object):
            for (name, child) in object {
                if name == key, let text = string(child) { values.append(text) }
                collectValues(of: key, in: child, into: &values, depth: depth + 1)
            }
        case .array(let children):
            for child in children { collectValues(of: key, in: child, into: &values, depth: depth + 1) }
        default:
            break
        }
    }
}
