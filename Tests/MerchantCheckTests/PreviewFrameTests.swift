import Testing

@testable import MerchantCheck

@Test func theEmailsDoctypeStaysFirstInThePreviewFrame() {
    let split = ReportRenderer.splitDoctype("  <!DOCTYPE html><html><body>Order</body></html>")
    #expect(split.doctype == "<!DOCTYPE html>")
    #expect(split.rest == "<html><body>Order</body></html>")
    let none = ReportRenderer.splitDoctype("<html><body>Order</body></html>")
    #expect(none.doctype.isEmpty)
    #expect(none.rest == "<html><body>Order</body></html>")
}
