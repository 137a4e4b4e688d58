import Foundation

/// Words around a number that say what it is, in the ten languages the rules cover.
/// `rules/languages/<code>.json5` may add tracking labels under `trackingNumberLabels`.
/// Public for `mailorders check`, which reads a number as the tracking search does.
public enum TrackingLabels {
    /// Words that label a tracking number, lower case.
    public static let tracking: [String] = [
        // English
        "tracking number", "tracking no", "tracking #", "tracking id", "tracking code", "tracking",
        "track your", "track package", "track shipment", "waybill", "air waybill", "airway bill", "awb",
        "consignment number", "consignment no", "parcel number", "parcel id", "shipment number",
        "tracking reference",
        // German
        "sendungsnummer", "sendungsverfolgung", "sendungsverfolgungsnummer", "trackingnummer",
        "tracking-nummer", "paketnummer", "paketscheinnummer", "sendungs-nr", "sendungsnr", "sendungscode",
        // French
        "numéro de suivi", "n° de suivi", "no de suivi", "numero de suivi", "suivi de colis",
        "suivre mon colis",
        "numéro de colis", "code de suivi", "suivi",
        // Spanish
        "número de seguimiento", "numero de seguimiento", "nº de seguimiento", "n.º de seguimiento",
        "código de seguimiento", "codigo de seguimiento", "número de envío", "numero de envio", "localizador",
        "seguimiento",
        // Italian
        "numero di tracciamento", "codice di tracciamento", "numero di tracking", "codice tracking",
        "numero di spedizione", "codice spedizione", "lettera di vettura", "segnacollo", "tracciamento",
        // Portuguese
        "código de rastreamento", "codigo de rastreamento", "código de rastreio", "codigo de rastreio",
        "número de rastreamento", "numero de rastreamento", "número de rastreio", "rastreamento", "rastreio",
        // Dutch
        "track & trace", "track&trace", "track en trace", "trackingnummer", "zendingnummer", "zendingsnummer",
        "verzendnummer", "volgnummer", "pakketnummer", "trackingcode",
        // Korean
        "운송장번호", "운송장 번호", "송장번호", "송장 번호", "등기번호", "배송조회", "운송장",
        // Japanese
        "お問い合わせ番号", "お問合せ番号", "お問い合せ番号", "問い合わせ番号", "問合せ番号", "追跡番号",
        "伝票番号", "送り状番号", "配送伝票番号", "お問い合わせ伝票番号", "荷物番号",
        // Chinese
        "运单号", "运单号码", "快递单号", "物流单号", "物流编号", "追踪号", "跟踪号", "快递号", "单号",
    ]

    /// Words that label some other number, lower case: a number right after one of these is
    /// not a tracking number.
    public static let otherNumbers: [String] = [
        // English
        "order", "order number", "order no", "order #", "order id", "invoice", "invoice number", "receipt",
        "customer", "customer number", "customer no", "account", "account number", "phone",
        "telephone", "tel", "fax", "call", "mobile", "zip", "zip code", "postal code", "postcode", "sku",
        "item #", "item no", "model", "part number", "coupon", "promo code", "discount code",
        "voucher", "gift card", "reference number", "confirmation number",
        "serial", "barcode number", "ean", "upc", "isbn", "vat", "iban",
        // German
        "bestellnummer", "bestell-nr", "bestellung", "auftragsnummer", "auftrag", "kundennummer",
        "rechnungsnummer", "rechnung", "telefon", "tel.", "handy", "plz", "artikelnummer", "artikel-nr",
        "gutschein", "gutscheincode", "rabattcode", "ust-idnr",
        // French
        "numéro de commande", "n° de commande", "commande", "facture", "numéro client", "téléphone",
        "code postal", "référence article", "code promo", "bon de réduction",
        // Spanish
        "número de pedido", "numero de pedido", "pedido", "factura", "número de cliente", "teléfono",
        "telefono", "código postal", "cupón", "código promocional",
        // Italian
        "numero d'ordine", "numero ordine", "ordine", "fattura", "codice cliente", "cap", "codice sconto",
        "buono",
        // Portuguese
        "número do pedido", "numero do pedido", "fatura", "telefone", "cep", "cupom",
        // Dutch
        "bestelnummer", "bestelling", "factuur", "klantnummer", "telefoon", "postcode", "kortingscode",
        // Korean
        "주문번호", "주문 번호", "주문", "고객센터", "전화", "연락처", "우편번호", "휴대폰", "쿠폰", "상품번호",
        // Japanese
        "注文番号", "ご注文番号", "電話", "郵便番号", "会員番号", "お客様番号", "クーポン", "商品番号",
        // Chinese
        "订单号", "订单编号", "订单", "电话", "邮编", "客服", "优惠码", "商品编号",
    ]

    /// Words that introduce a made-up example, as in a shipping FAQ.
    static let examples: [String] = [
        "e.g.", "eg.", "for example", "example", "such as", "looks like", "look like", "starts with",
        "start with", "begins with", "begin with", "format", "digits", "characters", "z.b.", "z. b.",
        "zum beispiel", "beispiel", "beispielsweise", "stellen", "par exemple", "exemple", "chiffres",
        "caractères", "por ejemplo", "ejemplo", "dígitos", "digitos", "ad esempio", "esempio", "cifre",
        "por exemplo", "exemplo", "bijvoorbeeld", "voorbeeld", "cijfers", "bv.", "예:", "예시", "예를 들어",
        "자리", "例えば", "例:", "例：", "桁", "例如", "示例", "比如", "位数",
    ]

    /// Tracking labels from `rules/languages/*.json5` (`trackingNumberLabels`), when present,
    /// each of several words also written without its spaces
    /// (``LanguageRules/withJoinedForms(_:)``) and with a typographic apostrophe
    /// (``LanguageRules/withTypographicApostrophes(_:)``). Unreadable files are skipped: the language
    /// rules loader reports them.
    static func fromLanguageRules(in rulesDirectory: URL) -> [String] {
        struct LanguageLabels: Decodable { var trackingNumberLabels: [String]? }
        var labels: [String] = []
        for file in RulesFile.files(in: rulesDirectory.appendingPathComponent("languages")) {
            if let decoded = try? RulesFile.decode(LanguageLabels.self, from: file) {
                labels += LanguageRules.withTypographicApostrophes(
                    LanguageRules.withJoinedForms(decoded.trackingNumberLabels ?? []))
            }
        }
        return labels
    }
}
