// Playhead: filled shapes for the overlay's icons (rectangles, triangles, circles, thick
// lines, arcs), drawn with SDL_RenderGeometry.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

/// Draws solid shapes with one SDL renderer, blending by alpha.
struct Shapes {
    let renderer: OpaquePointer

    init(renderer: OpaquePointer) {
        self.renderer = renderer
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    func fill(_ rect: CGRect, _ color: SDL_Color) {
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
        var area = VideoRenderer.sdlRect(rect)
        SDL_RenderFillRect(renderer, &area)
    }

    func triangle(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ color: SDL_Color) {
        triangles([a, b, c], color)
    }

    /// Draws consecutive triples of `points` as triangles.
    func triangles(_ points: [CGPoint], _ color: SDL_Color) {
        let vertices = points.map { point in
            SDL_Vertex(
                position: SDL_FPoint(x: Float(point.x), y: Float(point.y)), color: color,
                tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        vertices.withUnsafeBufferPointer { buffer in
            _ = SDL_RenderGeometry(renderer, nil, buffer.baseAddress, Int32(buffer.count), nil, 0)
        }
    }

    /// A thick straight line from `a` to `b`.
    func line(_ a: CGPoint, _ b: CGPoint, width: CGFloat, _ color: SDL_Color) {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = max(0.001, (dx * dx + dy * dy).squareRoot())
        let nx = -dy / length * width / 2, ny = dx / length * width / 2
        let p1 = CGPoint(x: a.x + nx, y: a.y + ny), p2 = CGPoint(x: b.x + nx, y: b.y + ny)
        let p3 = CGPoint(x: b.x - nx, y: b.y - ny), p4 = CGPoint(x: a.x - nx, y: a.y - ny)
        triangles([p1, p2, p3, p1, p3, p4], color)
    }

    /// A filled disc.
    func circle(center: CGPoint, radius: CGFloat, _ color: SDL_Color) {
        arc(center: center, radius: radius, width: radius, from: 0, to: 2 * .pi, color)
    }

    /// A ring segment `width` thick whose outer edge has `radius`, from angle `start` to `end`
    /// (radians, clockwise from the positive x axis on screen).
    func arc(
        center: CGPoint, radius: CGFloat, width: CGFloat, from start: CGFloat, to end: CGFloat,
        _ color: SDL_Color
    ) {
        let steps = max(8, Int(abs(end - start) / (2 * .pi) * 48))
        let inner = max(0, radius - width)
        var points: [CGPoint] = []
        points.reserveCapacity(steps * 6)
        for step in 0..<steps {
            let a0 = start + (end - start) * CGFloat(step) / CGFloat(steps)
            let a1 = start + (end - start) * CGFloat(step + 1) / CGFloat(steps)
            let o0 = CGPoint(x: center.x + cos(a0) * radius, y: center.y + sin(a0) * radius)
            let o1 = CGPoint(x: center.x + cos(a1) * radius, y: center.y + sin(a1) * radius)
            let i0 = CGPoint(x: center.x + cos(a0) * inner, y: center.y + sin(a0) * inner)
            let i1 = CGPoint(x: center.x + cos(a1) * inner, y: center.y + sin(a1) * inner)
            points += [o0, o1, i1, o0, i1, i0]
        }
        triangles(points, color)
    }
}

extension SDL_Color {
    init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
        self.init(r: red, g: green, b: blue, a: alpha)
    }
}
