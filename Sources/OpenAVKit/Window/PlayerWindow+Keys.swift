// Playhead: the player window's SDL key codes, mapped to the keys the controls understand.
//
// Concurrency: a pure function.
internal import CSDL2

extension PlayerWindow {
    // MARK: - Keys

    /// The player key for an SDL key code.
    static func keyInput(_ code: SDL_Keycode) -> PlayerKeyInput? {
        switch Int(code) {
        case Int(SDLK_SPACE.rawValue): return .space
        case Int(SDLK_LEFT.rawValue): return .left
        case Int(SDLK_RIGHT.rawValue): return .right
        case Int(SDLK_UP.rawValue): return .up
        case Int(SDLK_DOWN.rawValue): return .down
        case Int(SDLK_ESCAPE.rawValue): return .escape
        case Int(SDLK_LEFTBRACKET.rawValue): return .leftBracket
        case Int(SDLK_RIGHTBRACKET.rawValue): return .rightBracket
        case Int(SDLK_PERIOD.rawValue): return .period
        case Int(SDLK_COMMA.rawValue): return .comma
        case Int(SDLK_PAGEUP.rawValue): return .pageUp
        case Int(SDLK_PAGEDOWN.rawValue): return .pageDown
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): return .minus
        case Int(SDLK_EQUALS.rawValue), Int(SDLK_PLUS.rawValue), Int(SDLK_KP_PLUS.rawValue): return .equals
        case Int(SDLK_a.rawValue)...Int(SDLK_z.rawValue):
            return .letter(Character(UnicodeScalar(UInt8(code))))
        default: return nil
        }
    }
}
