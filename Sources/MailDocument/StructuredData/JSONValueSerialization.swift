extension JSONValue {
    /// The value as JSON text (RFC 8259), object keys sorted so output is stable.
    ///
    /// - Parameter pretty: Indent nested values by two spaces per level.
    /// - Returns: JSON text; numbers that are whole print without a fraction.
    public func jsonString(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number):
            if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
                output += String(Int64(number))
            } else if number.isFinite {
                output += String(number)
            } else {
                output += "null"
            }
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let object):
            if object.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                object[key]?.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += JSONText.quoted(text)
    }
}

extension SchemaObject {
    /// The object as one JSON value: its properties plus `@type` and `@origin`.
    public var jsonValue: JSONValue {
        var object = properties
        object["@type"] = .string(type)
        object["@origin"] = .string(origin)
        return .object(object)
    }
}
