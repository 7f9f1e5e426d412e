// Playhead: an SDL renderer and what it draws into: a window, or an offscreen surface.
//
// Concurrency: confined to the thread that created it (SDL renderers are single-threaded).
internal import CSDL2

/// An SDL renderer and its drawing target.
final class RenderTarget {
    /// owned by this object; destroyed in deinit
    let renderer: OpaquePointer
    /// owned by this object when offscreen; freed in deinit
    private let surface: UnsafeMutablePointer<SDL_Surface>?
    /// True when the renderer waits for the display's vertical sync on present.
    let isVSynced: Bool
    /// The renderer's name as SDL reports it ("opengl", "software", …).
    let name: String

    /// A software renderer drawing into a `width` × `height` ARGB surface (tests, snapshots).
    init(offscreenWidth width: Int, height: Int) throws(SDLError) {
        guard
            let surface = SDL_CreateRGBSurfaceWithFormat(
                0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { throw SDLError("cannot create a \(width)x\(height) surface: \(SDLSubsystem.lastError)") }
        guard let renderer = SDL_CreateSoftwareRenderer(surface) else {
            SDL_FreeSurface(surface)
            throw SDLError("cannot create a software renderer: \(SDLSubsystem.lastError)")
        }
        self.surface = surface
        self.renderer = renderer
        isVSynced = false
        name = "software"
    }

    /// A renderer for `window`: accelerated with vertical sync when available, else software.
    init(window: OpaquePointer) throws(SDLError) {
        let vsync = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
        let renderer =
            SDL_CreateRenderer(window, -1, vsync)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        guard let renderer else {
            throw SDLError("cannot create a renderer: \(SDLSubsystem.lastError)")
        }
        self.renderer = renderer
        surface = nil
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        isVSynced = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        name = info.name.map { String(cString: $0) } ?? "unknown"
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        if let surface { SDL_FreeSurface(surface) }
    }

    /// The drawable size in pixels.
    var outputSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return (Int(width), Int(height))
    }

    /// Reads the pixel at (`x`, `y`) as red, green, blue.
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: 1, h: 1)
        var value: UInt32 = 0
        SDL_RenderReadPixels(renderer, &rect, SDL_PIXELFORMAT_ARGB8888.rawValue, &value, 4)
        return (UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }
}

extension RenderTarget {
    /// Reads the whole target as rows of red, green, blue bytes (screenshots and tests).
    func rgbPixels() -> (width: Int, height: Int, rgb: [UInt8]) {
        let (width, height) = outputSize
        var argb = [UInt32](repeating: 0, count: width * height)
        argb.withUnsafeMutableBytes { bytes in
            _ = SDL_RenderReadPixels(
                renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, bytes.baseAddress, Int32(width * 4))
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for (index, value) in argb.enumerated() {
            rgb[index * 3] = UInt8((value >> 16) & 0xFF)
            rgb[index * 3 + 1] = UInt8((value >> 8) & 0xFF)
            rgb[index * 3 + 2] = UInt8(value & 0xFF)
        }
        return (width, height, rgb)
    }
}
