import CPSL

/// Registrable domains (eTLD+1) from the public suffix list, through libpsl.
///
/// `psl_latest(NULL)` loads the newest list the system has (Debian's `publicsuffix`
/// package), falling back to the list built into libpsl. The context is loaded once and
/// only read afterwards, which libpsl allows from any thread.
public enum RegistrableDomain {
    private final class Context: @unchecked Sendable {
        let pointer: OpaquePointer?

        init() {
            pointer = psl_latest(nil) ?? psl_builtin()
        }
    }

    private static let context = Context()

    /// The registrable domain of a host name.
    ///
    /// - Parameter domain: A host name, any case, with or without a trailing dot.
    /// - Returns: The registrable domain (`shop.example.co.uk` → `example.co.uk`), or `nil`
    ///   for a public suffix itself, an IP literal, or an empty name.
    public static func of(_ domain: String) -> String? {
        var host = domain.trimmingSpaces().lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        if host.hasPrefix("[") || host.isEmpty || host.utf8.count > 253 { return nil }
        if host.allSatisfy({ $0.isNumber || $0 == "." }) { return nil }
        guard let psl = context.pointer else { return nil }
        return host.withCString { pointer -> String? in
            guard let registrable = psl_registrable_domain(psl, pointer) else { return nil }
            return String(cString: registrable)
        }
    }
}
