// HTML → text, links, images, JSON-LD and microdata; the lenient JSON-LD reader, the
// schema.org normaliser, redirect unwrapping and inline-forward detection on the result.
import MailDocument

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        let html = String(decoding: bytes, as: UTF8.self)
        let rendered = HTMLRenderer.render(html: html, partPath: "1")
        consume(rendered.text.lines.count)
        var values = rendered.microdata
        for block in rendered.jsonLD {
            values += JSONLDRepair.parse(block.text).values
        }
        // The raw input read as JSON-LD too, so the lenient reader gets every shape.
        values += JSONLDRepair.parse(html).values
        let objects = StructuredDataNormalizer.normalize(values, origin: "fuzz")
        consume(objects.map { $0.string("orderNumber") })
        consume(values.map { $0.jsonString() })
        for link in rendered.links.prefix(50) {
            consume(RedirectUnwrapper.unwrap(link.href))
        }
        consume(ForwardDetector.detect(in: rendered.text.text))
    }
}
