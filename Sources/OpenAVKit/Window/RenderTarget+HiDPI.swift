// Playhead: HiDPI windows: the renderer draws in window points, scaled to the drawable's
// pixels, so the layout, the layer's frame and mouse coordinates (all in points) agree and the
// controls keep their physical size on a 2× screen.
//
// Concurrency: confined to the thread that owns the renderer and the window.
internal import CSDL2

extension RenderTarget {
    /// Sets the renderer's scale to the window's pixel density (drawable pixels per window
    /// point: 2 on a HiDPI screen with Wayland or macOS, 1 on X11) and returns the window's
    /// size in points.
    func scaleToPoints(of window: OpaquePointer) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_GetWindowSize(window, &width, &height)
        let pixels = outputSize
        guard width > 0, height > 0, pixels.width > 0, pixels.height > 0 else { return pixels }
        applyScale(x: Float(pixels.width) / Float(width), y: Float(pixels.height) / Float(height))
        return (Int(width), Int(height))
    }

    /// Makes the renderer draw `x`×`y` pixels per unit (when not already).
    func applyScale(x: Float, y: Float) {
        var currentX: Float = 0
        var currentY: Float = 0
        SDL_RenderGetScale(renderer, &currentX, &currentY)
        if currentX != x || currentY != y { SDL_RenderSetScale(renderer, x, y) }
    }
}
