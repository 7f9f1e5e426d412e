// Playhead: what `import OpenAVFoundation` brings along, as `import AVFoundation` does on Apple
// platforms: CoreMedia's time types (OpenCoreMedia), Foundation (URL, NSObject, NSError,
// NotificationCenter, TimeInterval, Locale, Date) and Dispatch (DispatchQueue), so a file that
// imports only AVFoundation ports by changing that one import.
@_exported import Dispatch
@_exported import Foundation
@_exported import OpenCoreMedia
