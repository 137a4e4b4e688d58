// HTML → text throughput, beside libxml2 parsing alone on the same HTML.
//
//   swift run -c release mailorders-bench html [--emails N] [--rounds N] [--seed N]
//
// Generates realistic order and shipping emails of 50–150 KB (nested layout tables, inline
// styles, a hidden preheader, Outlook conditionals, tracked links, JSON-LD, a footer full
// of links), then times: (1) libxml2's htmlReadMemory + xmlFreeDoc alone, with the same
// preparation and options the renderer uses; (2) HTMLRenderer.render, which includes (1).
// The goal: rendering adds no more than 30% to the parse.
import CLibXML2
import Foundation
import MailDocument

func runHTMLBenchmark(arguments: [String]) {
    var emails = 40
    var rounds = 5
    var seed: UInt64 = 42
    var index = 0
    while index < arguments.count {
        let value = index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
        switch arguments[index] {
        case "--emails": emails = value ?? emails
        case "--rounds": rounds = value ?? rounds
        case "--seed": seed = UInt64(value ?? 42)
        default:
            print("usage: mailorders-bench html [--emails N] [--rounds N] [--seed N]")
            return
        }
        index += 2
    }
    var generator = EmailHTMLGenerator(seed: seed)
    let documents = (0..<max(emails, 1)).map { _ in generator.email() }
    let totalBytes = documents.reduce(0) { $0 + $1.utf8.count }
    let sizes = documents.map { $0.utf8.count }
    print(
        "html: \(documents.count) emails, \(totalBytes / 1024) KB total, "
            + "\((sizes.min() ?? 0) / 1024)–\((sizes.max() ?? 0) / 1024) KB each, \(rounds) rounds")

    // Warm up both paths once.
    var checksum = 0
    for document in documents {
        checksum &+= parseOnly(document)
        checksum &+= HTMLRenderer.render(html: document, partPath: "1").text.text.utf8.count
    }

    var parseBest = Double.infinity
    var renderBest = Double.infinity
    for _ in 0..<max(rounds, 1) {
        let parseStart = threadCPUTime()
        for document in documents { checksum &+= parseOnly(document) }
        let parseEnd = threadCPUTime()
        for document in documents {
            checksum &+= HTMLRenderer.render(html: document, partPath: "1").text.text.utf8.count
        }
        let renderEnd = threadCPUTime()
        parseBest = min(parseBest, Double(parseEnd - parseStart) / 1e9)
        renderBest = min(renderBest, Double(renderEnd - parseEnd) / 1e9)
    }
    let megabytes = Double(totalBytes) / 1_048_576
    let overhead = (renderBest - parseBest) / parseBest * 100
    print("best of \(max(rounds, 1)) rounds, thread CPU time:")
    print(
        String(format: "libxml2 parse alone:   %8.2f ms  %7.1f MB/s", parseBest * 1000, megabytes / parseBest)
    )
    print(
        String(
            format: "HTMLRenderer.render:   %8.2f ms  %7.1f MB/s", renderBest * 1000, megabytes / renderBest))
    print(String(format: "rendering adds %.1f%% to the parse (goal: ≤ 30%%)", overhead))
    let sample = HTMLRenderer.render(html: documents[0], partPath: "1")
    print(
        "first email: \(sample.text.text.utf8.count) bytes of text, \(sample.links.count) links, "
            + "\(sample.jsonLD.count) JSON-LD blocks, preheader: \(sample.preheader ?? "none")")
    if checksum == 42 { print("") }  // keeps the work observable
}

/// CPU time of this thread in nanoseconds: steadier than wall time on a shared machine.
private func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// libxml2 alone: the same prepared bytes and options as the renderer, parse and free.
private func parseOnly(_ html: String) -> Int {
    let bytes = HTMLRenderer.preparedBytes(html: html)
    let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.flatMap { base in
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(buffer.count), nil, "UTF-8", HTMLRenderer.parseOptions)
            }
        }
    }
    guard let document else { return 0 }
    xmlFreeDoc(document)
    return bytes.count
}

/// Deterministic generator of order and shipping emails shaped like real ones.
private struct EmailHTMLGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 6_364_136_223_846_793_005 &+ 1
    }

    private mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    private mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    private let merchants = [
        "Example Outfitters", "Nordwind Versand", "Maison Lumière", "Tienda Sol", "하늘 쇼핑",
    ]
    private let products = [
        "Merino Crew Socks", "Trail Running Shoes", "Organic Cotton T-Shirt", "Waterproof Jacket",
        "Leather Wallet", "Ceramic Pour-Over Set", "Wool Beanie", "Canvas Tote Bag",
    ]
    private let words = [
        "your", "order", "has", "shipped", "thanks", "for", "shopping", "with", "us", "delivery", "estimated",
        "questions", "contact", "support", "returns", "within", "days", "free", "shipping", "members",
        "exclusive",
        "offer", "new", "arrivals", "season", "collection", "privacy", "policy", "unsubscribe", "preferences",
    ]

    private mutating func sentence(_ count: Int) -> String {
        (0..<count).map { _ in pick(words) }.joined(separator: " ")
    }

    private mutating func tracked(_ target: String) -> String {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        return
            "https://click.mail.example.com/ls/click?upn=\(next())&amp;u=\(encoded)&amp;cid=\(next() % 99_999)"
    }

    mutating func email() -> String {
        let target = number(50_000...150_000)
        let merchant = pick(merchants)
        let orderNumber = "A-\(number(10_000...99_999))"
        var html = """
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1.0"><title>Your order \(orderNumber)</title>
            <style type="text/css">body{margin:0;padding:0}table{border-collapse:collapse}.preheader{display:none!important}
            @media only screen and (max-width:600px){.col{width:100%!important}}</style>
            <!--[if mso]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->
            <script type="application/ld+json">{"@context":"http://schema.org","@type":"Order","merchant":{"@type":"Organization","name":"\(merchant)"},
            "orderNumber":"\(orderNumber)","orderStatus":"http://schema.org/OrderInTransit","priceCurrency":"USD","price":"\(number(10...500)).00",
            "acceptedOffer":[{"@type":"Offer","itemOffered":{"@type":"Product","name":"\(pick(products))"},"price":"19.00"},],}</script>
            </head><body style="margin:0;padding:0;background-color:#f4f4f4;">
            <div class="preheader" style="display:none;font-size:1px;line-height:1px;max-height:0px;max-width:0px;opacity:0;overflow:hidden;mso-hide:all;">Your order \(orderNumber) is on its way&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;&zwnj;</div>
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f4;"><tr><td align="center" style="padding:20px 0;">
            <!--[if mso]><table role="presentation" width="600" cellpadding="0" cellspacing="0"><tr><td><![endif]-->
            <table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;max-width:600px;background-color:#ffffff;font-family:Helvetica,Arial,sans-serif;">
            <tr><td style="padding:24px;text-align:center;"><a href="\(tracked("https://shop.example.com/"))" target="_blank"><img src="https://cdn.example.com/logo.png" width="160" alt="\(merchant)" style="display:block;border:0;"></a></td></tr>
            <tr><td style="padding:0 24px;font-size:22px;line-height:28px;color:#111111;font-weight:bold;">Your order has shipped!</td></tr>
            <tr><td style="padding:12px 24px;font-size:14px;line-height:20px;color:#333333;">Hi Sam,<br>Good news: \(sentence(18)).</td></tr>
            <tr><td style="padding:0 24px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px;">
            <tr><td style="padding:6px 0;color:#666666;">Order number</td><td align="right" style="padding:6px 0;color:#111111;">#\(orderNumber)</td></tr>
            <tr><td style="padding:6px 0;color:#666666;">Carrier</td><td align="right" style="padding:6px 0;">UPS</td></tr>
            <tr><td style="padding:6px 0;color:#666666;">Tracking number</td><td align="right" style="padding:6px 0;"><a href="\(tracked("https://www.ups.com/track?tracknum=1Z999AA10123456784"))" style="color:#0066cc;">1Z999AA10123456784</a></td></tr>
            </table></td></tr>

            """
        var item = 0
        while html.utf8.count < target - 6_000 {
            item += 1
            let product = pick(products)
            html += """
                <tr><td style="padding:8px 24px;border-top:1px solid #eeeeee;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
                <td class="col" width="80" valign="top" style="padding-right:12px;"><a href="\(tracked("https://shop.example.com/p/\(item)"))"><img src="https://cdn.example.com/p/\(item).jpg" width="80" height="80" alt="\(product)" style="display:block;border:0;border-radius:4px;"></a></td>
                <td class="col" valign="top" style="font-family:Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#333333;"><span style="font-weight:bold;color:#111111;">\(product)</span><br>
                <span style="color:#777777;font-size:12px;">Size: \(pick(["S", "M", "L", "XL"])) &middot; Color: \(pick(["Navy", "Olive", "Charcoal"])) &middot; SKU \(next() % 1_000_000)</span><br>
                <span style="font-size:12px;color:#999999;">\(sentence(12))</span></td>
                <td width="60" align="right" valign="top" style="font-size:14px;color:#111111;">Qty&nbsp;\(number(1...3))</td>
                <td width="80" align="right" valign="top" style="font-size:14px;color:#111111;white-space:nowrap;">$\(number(5...200)).\(number(10...99))</td>
                </tr></table></td></tr>

                """
            if item % 4 == 0 {
                html += """
                    <tr><td style="padding:16px 24px;"><!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="https://shop.example.com/" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" fillcolor="#111111"><center style="color:#ffffff;">Shop now</center></v:roundrect><![endif]-->
                    <![if !mso]><a href="\(tracked("https://shop.example.com/collections/\(item)"))" style="background-color:#111111;border-radius:4px;color:#ffffff;display:inline-block;font-size:14px;line-height:40px;text-align:center;text-decoration:none;width:200px;">Shop now</a><![endif]></td></tr>
                    <tr><td style="padding:0 24px 16px;font-size:13px;line-height:19px;color:#555555;"><p style="margin:0 0 8px;">\(sentence(30))</p><p style="margin:0;">\(sentence(25))</p></td></tr>

                    """
            }
        }
        html += """
            <tr><td style="padding:24px;background-color:#fafafa;font-size:12px;line-height:18px;color:#999999;text-align:center;">
            """
        for link in 0..<12 {
            html +=
                "<a href=\"\(tracked("https://shop.example.com/help/\(link)"))\" style=\"color:#999999;\">\(pick(words).capitalized)</a> &nbsp;|&nbsp; "
        }
        html += """
            <br><br>\(merchant), 1 Example Street, Springfield<br>\(sentence(20))<br>
            <a href="\(tracked("https://shop.example.com/unsubscribe"))" style="color:#999999;">Unsubscribe</a></td></tr>
            </table><!--[if mso]></td></tr></table><![endif]--></td></tr></table>
            <img src="https://open.example.com/o.gif?u=\(next())" width="1" height="1" alt="" style="display:block;"></body></html>
            """
        return html
    }
}
