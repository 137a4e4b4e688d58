import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// Order and tracking numbers in text/plain bodies written for a terminal: colours, OSC 8
/// hyperlinks, 8-bit introducers, sequences that never end and stray `ESC SP` leave each
/// number whole and nothing glued to it.
@Suite struct ControlFunctionExtractionTests {
    func extract(_ body: String) throws -> ExtractionResult {
        try ControlCharacterLabelTests.extract(
            type: "text/plain", body: "Hello Jordan,\r\n\(body)\r\nThank you!")
    }

    @Test(arguments: [
        // An OSC 8 hyperlink right after the number: its text is a word of its own.
        "Order number: LS-4471982\u{1B}]8;;https://lumen-shop.example/o/4471982\u{1B}\\View\u{1B}]8;;\u{1B}\\",
        "Order number: LS-4471982\u{1B}]8;;https://lumen-shop.example/o/4471982\u{7}View\u{1B}]8;;\u{7}",
        "Order number: LS-4471982\u{9D}8;;https://lumen-shop.example/o/4471982\u{9C}View\u{9D}8;;\u{9C}",
        // 8-bit CSI in a body, as in a subject.
        "Order number: \u{9B}1;31mLS-4471982\u{9B}0m",
        // More parameter bytes than any terminal needs.
        "Order number: \u{1B}[\(String(repeating: "1;", count: 100))1mLS-4471982\u{1B}[0m",
        // A window title that never ends on its line.
        "Order number: LS-4471982\u{1B}]0;Lumen Shop",
        // A stray ESC SP right before the number.
        "Order number: \u{1B} LS-4471982",
    ])
    func theOrderNumberIsWhole(_ line: String) throws {
        let result = try extract(line)
        #expect(result.orderNumber == "LS-4471982", "\(line.debugDescription)")
    }

    @Test(arguments: [
        "Tracking number: 1Z999AA10123456784\u{1B}]8;;https://www.ups.com/track?tracknum=1Z999AA10123456784\u{1B}\\Track\u{1B}]8;;\u{1B}\\",
        "Tracking number: 1Z999AA10123456784\u{9D}8;;https://www.ups.com/track\u{9C}123\u{9D}8;;\u{9C}",
        "Tracking number: \u{9B}1m1Z999AA10123456784\u{9B}0m",
        "Tracking number: \u{1B} 1Z999AA10123456784",
        "Tracking number: 1Z999AA10123456784\u{1B}]8;;https://www.ups.com/track/"
            + String(repeating: "x", count: 600),
    ])
    func theTrackingNumberIsWhole(_ line: String) throws {
        let result = try extract("Your order LS-4471982 has shipped with UPS.\r\n\(line)")
        #expect(
            (result.shipments ?? []).map { $0.trackingNumber } == ["1Z999AA10123456784"],
            "\(line.debugDescription)")
    }
}
