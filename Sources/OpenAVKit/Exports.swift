// Playhead: what `import OpenAVKit` brings along, as `import AVKit` does on Apple platforms:
// OpenAVFoundation, and with it OpenCoreMedia, Foundation and Dispatch.
@_exported import Dispatch
@_exported import Foundation
@_exported import OpenAVFoundation
