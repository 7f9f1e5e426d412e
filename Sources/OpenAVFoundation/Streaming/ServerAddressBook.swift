// Playhead: the IP address a stream's server answers at, for the access and error logs'
// `serverAddress`.
//
// Concurrency: the cache is behind its lock; a lookup runs on the calling thread (the loader's
// or the open work's, never the main queue) outside the lock.
import Foundation

/// The address of the server a media request went to, as Apple's logs report it.
///
/// FoundationNetworking on Linux does not report the connection's remote address (its task
/// metrics never arrive), so the host name is looked up with the system resolver, once per
/// host, and the first address it gives is taken: the one a connection tries first. A host
/// written as an address is that address.
enum ServerAddressBook {
    private static let known = Locked<[String: String]>([:])

    /// The address of `url`'s server, or its host name when it does not resolve; nil without a
    /// host.
    static func address(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if isAddress(bare) { return bare }
        if let cached = known.withLock({ $0[bare] }) { return cached }
        let resolved = Host(name: bare).address ?? bare
        known.withLock { table in
            if table.count >= 64 { table = [:] }
            table[bare] = resolved
        }
        return resolved
    }

    /// True when `text` is an IPv4 or IPv6 address.
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
