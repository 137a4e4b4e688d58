import CPSL
import MIME

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
    ///   for a public suffix itself, an IP literal, an empty name, or a name holding a control
    ///   character (ESC, DEL, C1) or white space inside it (see ``MailAddress/isDomainText(_:)``).
    public static func of(_ domain: String) -> String? {
        var host = domain.trimmingSpaces().lowercased()
        guard MailAddress.isDomainText(host) else { return nil }
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
