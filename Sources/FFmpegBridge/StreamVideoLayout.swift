// Playhead: one way a variant's video may be viewed, as an adaptive stream declares it (HLS
// `REQ-VIDEO-LAYOUT`).
// Concurrency: a value type; safe from any thread.

/// One layout a variant's video may be shown in: stereo or flat, and the surface it is
/// projected on.
package struct StreamVideoLayout: Sendable, Equatable {
    /// The surfaces a layout can name.
    package enum Projection: Sendable, Equatable {
        /// Flat video (HLS `PROJ-RECT`, and the default).
        case rectilinear
        /// A 360° sphere (`PROJ-EQUI`).
        case equirectangular
        /// The front half of a sphere (`PROJ-HEQU`).
        case halfEquirectangular
        /// Lens parameters carried with the video (`PROJ-PRIM`).
        case parametricImmersive
    }

    /// True when the pictures carry a view for each eye (`CH-STEREO`); flat otherwise.
    package var isStereo: Bool
    /// The surface the pictures are projected on.
    package var projection: Projection

    /// A layout; flat, rectilinear video by default.
    package init(isStereo: Bool = false, projection: Projection = .rectilinear) {
        self.isStereo = isStereo
        self.projection = projection
    }
}
