// Playhead: reading an HLS variant's `REQ-VIDEO-LAYOUT` (the ways its video may be viewed,
// most preferred first) into `StreamVideoLayout`s.
//
// Concurrency: a pure function; any thread.
import FFmpegBridge
import Foundation

extension StreamVideoLayout {
    /// The layouts a `REQ-VIDEO-LAYOUT` value lists, in its order: comma-separated entries,
    /// each a slash-separated set of specifiers (`CH-STEREO`, `CH-MONO`, `PROJ-RECT`,
    /// `PROJ-EQUI`, `PROJ-HEQU`, `PROJ-PRIM`). A specifier left out takes its default (flat,
    /// rectilinear). An entry with a specifier Playhead does not know (`PROJ-AIV`, a future
    /// one) or two that conflict is skipped, as the HLS specification asks of clients.
    static func layouts(requiredBy value: String) -> [StreamVideoLayout] {
        value.split(separator: ",").compactMap { entry -> StreamVideoLayout? in
            var channel: Bool?
            var projection: Projection?
            for specifier in entry.split(separator: "/").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let stereo: Bool?, surface: Projection?
                switch specifier {
                case "CH-STEREO": (stereo, surface) = (true, nil)
                case "CH-MONO": (stereo, surface) = (false, nil)
                case "PROJ-RECT": (stereo, surface) = (nil, .rectilinear)
                case "PROJ-EQUI": (stereo, surface) = (nil, .equirectangular)
                case "PROJ-HEQU": (stereo, surface) = (nil, .halfEquirectangular)
                case "PROJ-PRIM": (stereo, surface) = (nil, .parametricImmersive)
                default: return nil
                }
                if let stereo {
                    guard channel == nil || channel == stereo else { return nil }
                    channel = stereo
                }
                if let surface {
                    guard projection == nil || projection == surface else { return nil }
                    projection = surface
                }
            }
            guard channel != nil || projection != nil else { return nil }
            return StreamVideoLayout(isStereo: channel ?? false, projection: projection ?? .rectilinear)
        }
    }
}
