// Playhead: what FormatContext does differently for http(s) inputs: request options, the
// https-to-http redirect check, and failure reasons in network terms.
//
// Concurrency: called by FormatContext on the thread that opens it.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

extension FormatContext {
    /// Adds `location`'s network options to the open dictionary (nothing for files).
    static func addNetworkOptions(for location: MediaLocation, to options: inout OpaquePointer?) {
        guard location.isNetwork, location.streaming == nil else { return }
        location.network.apply(to: &options)
    }

    /// The URL the input was finally read from after redirects, when the protocol reports one.
    package var finalLocation: String? {
        guard let io = pointer.pointee.pb else { return nil }
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, "location", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        return String(cString: value)
    }

    /// The last Shoutcast/Icecast metadata packet the HTTP body carried (`StreamTitle='…';`),
    /// when the server sends ICY metadata; nil otherwise.
    package var icyMetadataPacket: String? {
        guard let io = pointer.pointee.pb else { return nil }
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, "icy_metadata_packet", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else {
            return nil
        }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Refuses an https input that a redirect moved to plain http. A second guard: the shim
    /// (`InterruptDeadline.refuseHTTPSDowngrade`) already fails such an input's open, nested
    /// ones included, before its body is read.
    func checkNoDowngrade(_ location: MediaLocation) throws(MediaFailure) {
        guard location.requiresTLS, let final = finalLocation else { return }
        if final.lowercased().hasPrefix("http:") {
            throw .io(detail: "refused redirect from https to http (\(final))")
        }
    }

    /// A reason for a failed network open or read, or nil when the code is not a network one.
    static func networkFailure(_ status: Int32) -> MediaFailure? {
        switch CFFmpeg_http_status_of_error(status) {
        case 400: return .io(detail: "bad request (HTTP 400)")
        case 401: return .io(detail: "not authorised (HTTP 401)")
        case 403: return .io(detail: "forbidden (HTTP 403)")
        case 404: return .io(detail: "not found (HTTP 404)")
        case 499: return .io(detail: "refused by the server (HTTP 4xx)")
        case 599: return .io(detail: "server error (HTTP 5xx)")
        default: break
        }
        switch status {
        case FFmpegError.posix(ECONNREFUSED): return .io(detail: "connection refused")
        case FFmpegError.posix(ECONNRESET): return .io(detail: "connection reset")
        case FFmpegError.posix(ETIMEDOUT): return .timedOut
        case FFmpegError.posix(EIO): return .io(detail: "connection lost")
        case FFmpegError.posix(EHOSTUNREACH), FFmpegError.posix(ENETUNREACH):
            return .io(detail: "host unreachable")
        default: return nil
        }
    }
}
