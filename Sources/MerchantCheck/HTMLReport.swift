import Extraction
import Foundation

extension ReportRenderer {
    /// The policy inside the email preview: nothing loads but inline styles and embedded
    /// (`data:`, `cid:`) images; scripts, remote images, fonts and frames are blocked.
    public static let emailContentSecurityPolicy =
        "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'"

    /// The policy of the report page itself: no scripts, nothing remote.
    static let pageContentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-src 'self' about: data:"

    /// The reports as one self-contained HTML page: each email rendered in a sandboxed frame
    /// (no scripts, remote content blocked) with the values found highlighted, next to a
    /// Wallet-like order card and the findings.
    ///
    /// Every value from an email is escaped; the email's HTML goes into the frame's `srcdoc`
    /// attribute escaped for an attribute value, behind a Content-Security-Policy `<meta>`
    /// (CSP Level 3 §6.1 `default-src`), with `sandbox=""` (HTML §4.8.5).
    /// - Parameters:
    ///   - reports: the reports.
    ///   - emailHTML: the HTML body of each email, in the same order (`nil` when an email has
    ///     none: its rendered text is shown instead); when shorter than `reports`, the
    ///     reports' own ``CheckReport/emailHTML`` is used.
    ///   - crossFindings: findings of ``MerchantEmailChecker/crossCheck(_:)``.
    ///   - skipped: the inputs that could not be read, listed before the reports.
    /// - Returns: the page.
    public static func html(
        _ reports: [CheckReport], emailHTML: [String?], crossFindings: [Finding] = [],
        skipped: [SkippedInput] = []
    ) -> String {
        var body = ""
        let errors = reports.filter(\.hasErrors).count
        body += "<header class=\"page-header\"><h1>mailorders check</h1>"
        body += "<p class=\"verdict \(errors > 0 || !skipped.isEmpty ? "fail" : "pass")\">"
        body +=
            errors > 0
            ? "\(errors) of \(reports.count) email\(reports.count == 1 ? "" : "s") with errors"
            : "No errors in \(reports.count) email\(reports.count == 1 ? "" : "s")"
        if !skipped.isEmpty {
            body += "; \(skipped.count) input\(skipped.count == 1 ? "" : "s") not read"
        }
        body += "</p></header>\n"
        if !skipped.isEmpty { body += skippedSection(skipped) }
        if reports.count > 1 || !crossFindings.isEmpty {
            body += summarySection(reports, crossFindings: crossFindings)
        }
        for (index, report) in reports.enumerated() {
            let html = index < emailHTML.count ? emailHTML[index] : report.emailHTML
            body += reportSection(report, emailHTML: html, index: index)
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(pageContentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>mailorders check: \(escape(reports.map(\.origin).joined(separator: ", ")))</title>
            <style>\(pageStyle)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// One report as a page.
    public static func html(_ report: CheckReport, emailHTML: String?) -> String {
        html([report], emailHTML: [emailHTML])
    }

    /// The reports as a page, each email's preview from its ``CheckReport/emailHTML``.
    public static func html(_ reports: [CheckReport], crossFindings: [Finding] = []) -> String {
        html(reports, emailHTML: [], crossFindings: crossFindings)
    }

    /// The `srcdoc` document of the email preview: the policy first, the highlight style,
    /// then the email with found values marked (before attribute escaping).
    /// A leading `<!DOCTYPE …>` (after white space) and the rest of the document.
    static func splitDoctype(_ html: String) -> (doctype: String, rest: String) {
        let trimmed = html.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard trimmed.prefix(9).lowercased() == "<!doctype", let end = trimmed.firstIndex(of: ">") else {
            return ("", html)
        }
        let after = trimmed.index(after: end)
        return (String(trimmed[..<after]), String(trimmed[after...]))
    }

    static func previewDocument(_ report: CheckReport, emailHTML: String?) -> String {
        let values = highlightValues(report)
        let head =
            "<meta http-equiv=\"Content-Security-Policy\" content=\"\(emailContentSecurityPolicy)\">"
            + "<meta charset=\"utf-8\">"
            + "<style>mark.mo-found{background:#ffe066;color:inherit;outline:2px solid #f59f00;"
            + "border-radius:2px}</style>"
        if let emailHTML, !emailHTML.isEmpty {
            let marked = HTMLMarker.mark(html: emailHTML, values: values)
            // The email's doctype stays first, so the frame renders in standards mode; the
            // policy still comes before any of the email's content.
            let (doctype, rest) = splitDoctype(marked)
            return doctype + head + rest
        }
        let text = report.renderedText ?? ""
        return head
            + "<pre style=\"white-space:pre-wrap;font:14px/1.5 -apple-system,'Segoe UI',sans-serif;margin:16px\">"
            + HTMLMarker.mark(plainText: text, values: values) + "</pre>"
    }

    /// The values to highlight in the email: merchant, order number, carriers, tracking numbers.
    static func highlightValues(_ report: CheckReport) -> [String] {
        var values: [String] = []
        let extraction = report.extraction
        if let name = extraction.merchant?.name { values.append(name) }
        if let number = extraction.orderNumber { values.append(number) }
        for shipment in extraction.shipments ?? [] {
            if let carrier = shipment.carrier { values.append(carrier) }
            if let number = shipment.trackingNumber { values.append(number) }
        }
        if let total = extraction.total { values.append(total.amount) }
        return values
    }

    private static func reportSection(_ report: CheckReport, emailHTML: String?, index: Int) -> String {
        let preview = previewDocument(report, emailHTML: emailHTML)
        var section = "<section class=\"report\" id=\"report-\(index + 1)\">\n"
        section += "<h2>\(escape(report.origin))</h2>\n"
        section += "<p class=\"meta\">"
        if let subject = report.subject { section += "<span><b>Subject</b> \(escape(subject))</span>" }
        if let address = report.senderAddress { section += "<span><b>From</b> \(escape(address))</span>" }
        section += "<span><b>Kind</b> \(escape(report.kind.rawValue))</span>"
        if let expected = report.expected {
            section += "<span><b>Expected</b> \(escape(expected.emailKind.rawValue))</span>"
        }
        section += "</p>\n<div class=\"columns\">\n<div class=\"email\">"
        section += "<iframe class=\"email-frame\" title=\"The email as received\" sandbox=\"\" "
        section +=
            "referrerpolicy=\"no-referrer\" srcdoc=\"\(HTMLEscaping.escape(preview))\"></iframe></div>\n"
        section +=
            "<div class=\"side\">\n" + card(report, index: index) + findingsList(report.findings)
            + "</div>\n</div>\n"
        section += fieldsTable(report)
        if let json = report.walletOrderJSON {
            section +=
                "<details class=\"wallet-json\"><summary>Wallet order.json</summary><pre>\(escape(json))</pre></details>\n"
        }
        section += "</section>\n"
        return section
    }

    /// The Wallet-like order card.
    private static func card(_ report: CheckReport, index: Int) -> String {
        let extraction = report.extraction
        let merchant = extraction.merchant?.name ?? extraction.merchant?.domain ?? "Unknown merchant"
        let initial = merchant.first.map { String($0).uppercased() } ?? "?"
        let status = walletStatus(report)
        var html = "<div class=\"wallet-card\" id=\"wallet-card-\(index + 1)\">\n"
        html += "<div class=\"card-top\"><div class=\"logo\">\(escape(initial))</div>"
        html += "<div><div class=\"merchant\">\(escape(merchant))</div>"
        if let domain = extraction.merchant?.domain {
            html += "<div class=\"domain\">\(escape(domain))</div>"
        }
        html +=
            "</div><span class=\"status status-\(escape(status.css))\">\(escape(status.label))</span></div>\n"
        html += "<dl>"
        html += row("Order", extraction.orderNumber ?? "—", missing: extraction.orderNumber == nil)
        if let date = extraction.orderDate { html += row("Ordered", date) }
        let shipments = extraction.shipments ?? []
        if shipments.isEmpty {
            html += row("Carrier", "—", missing: true)
            html += row("Tracking", "—", missing: true)
        }
        for shipment in shipments {
            html += row("Carrier", shipment.carrier ?? "—", missing: shipment.carrier == nil)
            html += row(
                "Tracking", shipment.trackingNumber ?? "—", missing: shipment.trackingNumber == nil,
                mono: true)
            if let window = shipment.estimatedDelivery {
                html += row("Delivery", MerchantEmailChecker.describe(window))
            }
        }
        if let total = extraction.total { html += row("Total", "\(total.amount) \(total.currency)") }
        html += "</dl>\n"
        if let items = extraction.lineItems, !items.isEmpty {
            html += "<ul class=\"items\">"
            for item in items.prefix(20) {
                let quantity = item.quantity.map { "\($0) × " } ?? ""
                let price =
                    item.price.map { " <span>\(escape($0.amount)) \(escape($0.currency))</span>" } ?? ""
                html += "<li>\(escape(quantity + item.title))\(price)</li>"
            }
            html += "</ul>\n"
        }
        html += "</div>\n"
        return html
    }

    private static func row(_ label: String, _ value: String, missing: Bool = false, mono: Bool = false)
        -> String
    {
        var classes: [String] = []
        if missing { classes.append("missing") }
        if mono { classes.append("mono") }
        let attribute = classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\""
        return "<dt>\(escape(label))</dt><dd\(attribute)>\(escape(value))</dd>"
    }

    private static func walletStatus(_ report: CheckReport) -> (label: String, css: String) {
        let extraction = report.extraction
        switch extraction.kind {
        case .cancellation: return ("Cancelled", "cancelled")
        case .refund: return ("Refunded", "completed")
        case .notAnOrder: return ("Not an order", "none")
        default: break
        }
        let statuses = (extraction.shipments ?? []).compactMap(\.status)
        if let status = statuses.first {
            switch status {
            case .delivered: return ("Delivered", "completed")
            case .outForDelivery: return ("Out for delivery", "moving")
            case .onTheWay, .shipped: return ("On the way", "moving")
            case .issue: return ("Issue", "cancelled")
            case .cancelled: return ("Cancelled", "cancelled")
            case .processing: return ("Processing", "open")
            }
        }
        if !(extraction.shipments ?? []).isEmpty { return ("Shipped", "moving") }
        return ("Ordered", "open")
    }

    private static func findingsList(_ findings: [Finding], title: String = "Findings") -> String {
        var html = "<div class=\"findings\"><h3>\(escape(title))</h3>\n"
        if findings.isEmpty { html += "<p class=\"none\">No findings.</p>\n" }
        for finding in findings {
            html += "<div class=\"finding \(finding.severity.rawValue)\">"
            html +=
                "<div class=\"finding-head\"><span class=\"badge\">\(escape(finding.severity.rawValue))</span>"
            html += "<code>\(escape(finding.code))</code></div>"
            html += "<p class=\"message\">\(escape(finding.message))</p>"
            html += "<p class=\"fix\"><b>Fix:</b> \(escape(finding.fix))</p></div>\n"
        }
        html += "</div>\n"
        return html
    }

    private static func fieldsTable(_ report: CheckReport) -> String {
        var html =
            "<details class=\"fields\" open><summary>What was found</summary><table class=\"fields-table\">"
        html +=
            "<thead><tr><th>Field</th><th>Value</th><th>Source</th><th>Confidence</th><th>Where</th></tr></thead><tbody>"
        for field in report.fields {
            html += "<tr><td><code>\(escape(field.field))</code></td><td>\(escape(field.value))</td>"
            html += "<td>\(escape(field.source ?? ""))</td>"
            html += "<td>\(field.confidence.map { String(format: "%.2f", $0) } ?? "")</td>"
            html += "<td>\(escape(field.snippet ?? ""))</td></tr>"
        }
        html += "</tbody></table></details>\n"
        return html
    }

    /// The inputs that could not be read: each with its origin, byte offset and reason.
    private static func skippedSection(_ skipped: [SkippedInput]) -> String {
        var html = "<section class=\"skipped\"><h2>Not read</h2>"
        html += "<p>These inputs could not be read as emails and were not checked.</p>"
        html += "<table><thead><tr><th>Input</th><th>Byte</th><th>Reason</th></tr></thead><tbody>"
        for input in skipped {
            html += "<tr class=\"fail\"><td>\(escape(input.origin))</td>"
            html += "<td>\(input.byteOffset.map(String.init) ?? "")</td><td>\(escape(input.reason))</td></tr>"
        }
        html += "</tbody></table></section>\n"
        return html
    }

    private static func summarySection(_ reports: [CheckReport], crossFindings: [Finding]) -> String {
        var html = "<section class=\"summary\"><h2>Summary</h2><table><thead><tr><th>File</th><th>Kind</th>"
        html += "<th>Errors</th><th>Warnings</th><th>Info</th></tr></thead><tbody>"
        for (index, report) in reports.enumerated() {
            html +=
                "<tr class=\"\(report.hasErrors ? "fail" : "pass")\"><td><a href=\"#report-\(index + 1)\">"
            html += "\(escape(report.origin))</a></td><td>\(escape(report.kind.rawValue))</td>"
            html +=
                "<td>\(report.count(.error))</td><td>\(report.count(.warning))</td><td>\(report.count(.info))</td></tr>"
        }
        html += "</tbody></table>\n"
        if !crossFindings.isEmpty { html += findingsList(crossFindings, title: "Across the emails") }
        html += "</section>\n"
        return html
    }

    /// Text from the email and the findings, bidirectional controls shown (see
    /// ``HTMLEscaping/escapeValue(_:)``); the preview's `srcdoc` keeps the email's own.
    private static func escape(_ text: String) -> String { HTMLEscaping.escapeValue(text) }

    private static let pageStyle = """
        :root{color-scheme:light}*{box-sizing:border-box}
        body{margin:0;background:#f2f2f7;color:#1c1c1e;font:15px/1.45 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        .page-header{display:flex;align-items:center;justify-content:space-between;padding:18px 32px;background:#1c1c1e;color:#fff}
        .page-header h1{margin:0;font-size:20px;font-weight:600}
        .verdict{margin:0;padding:6px 14px;border-radius:999px;font-weight:600}
        .verdict.fail{background:#ff3b30}.verdict.pass{background:#34c759}
        section{margin:24px 32px;padding:20px 24px;background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
        h2{margin:0 0 6px;font-size:18px;word-break:break-all}
        .meta{margin:0 0 16px;color:#6e6e73;display:flex;flex-wrap:wrap;gap:6px 18px}.meta b{color:#1c1c1e;font-weight:600;margin-right:4px}
        .columns{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(320px,1fr);gap:24px;align-items:start}
        .email-frame{width:100%;height:760px;border:1px solid #d1d1d6;border-radius:10px;background:#fff}
        .wallet-card{background:linear-gradient(160deg,#2c2c2e,#1c1c1e);color:#fff;border-radius:18px;padding:20px 22px;box-shadow:0 6px 18px rgba(0,0,0,.25)}
        .card-top{display:flex;align-items:center;gap:12px;margin-bottom:14px}
        .logo{width:44px;height:44px;border-radius:10px;background:#0a84ff;display:flex;align-items:center;justify-content:center;font-size:22px;font-weight:700}
        .merchant{font-size:18px;font-weight:600}.domain{font-size:12px;color:#aeaeb2}
        .status{margin-left:auto;padding:4px 10px;border-radius:999px;font-size:12px;font-weight:600;background:#48484a;white-space:nowrap}
        .status-moving{background:#0a84ff}.status-completed{background:#30d158;color:#000}.status-cancelled{background:#ff453a}.status-open{background:#ff9f0a;color:#000}
        .wallet-card dl{display:grid;grid-template-columns:auto 1fr;gap:6px 14px;margin:0}
        .wallet-card dt{color:#aeaeb2;font-size:13px}.wallet-card dd{margin:0;font-weight:500;word-break:break-all}
        .wallet-card dd.mono{font-family:ui-monospace,Menlo,Consolas,monospace}.wallet-card dd.missing{color:#ff9f0a}
        .items{margin:14px 0 0;padding:12px 0 0;border-top:1px solid #3a3a3c;list-style:none;font-size:13px}
        .items li{display:flex;justify-content:space-between;gap:10px;padding:2px 0}
        .findings h3{margin:22px 0 10px;font-size:16px}.none{color:#34c759;font-weight:600}
        .finding{border-left:4px solid #8e8e93;background:#f9f9fb;border-radius:8px;padding:10px 12px;margin-bottom:10px}
        .finding.error{border-color:#ff3b30}.finding.warning{border-color:#ff9500}.finding.info{border-color:#0a84ff}
        .finding-head{display:flex;gap:8px;align-items:center}
        .badge{font-size:11px;text-transform:uppercase;font-weight:700;padding:2px 8px;border-radius:999px;color:#fff;background:#8e8e93}
        .error .badge{background:#ff3b30}.warning .badge{background:#ff9500}.info .badge{background:#0a84ff}
        .finding p{margin:6px 0 0}.fix{color:#3a3a3c;font-size:14px}
        details{margin-top:18px}summary{cursor:pointer;font-weight:600}
        table{border-collapse:collapse;width:100%;margin-top:8px;font-size:14px}
        th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #e5e5ea;vertical-align:top;word-break:break-word}
        tr.fail td:first-child{border-left:3px solid #ff3b30}tr.pass td:first-child{border-left:3px solid #34c759}
        .fields-table th,.fields-table td:nth-child(1),.fields-table td:nth-child(3),.fields-table td:nth-child(4){white-space:nowrap}
        .fields-table td:nth-child(2){word-break:break-all}
        pre{background:#f2f2f7;padding:12px;border-radius:8px;overflow:auto;font-size:12px}
        @media (max-width:900px){.columns{grid-template-columns:1fr}}
        """
}
