// Playhead: the QuickTime metadata keys and identifiers that timed metadata tracks carry
// most often (titles, locations, directions), as Apple names them.
//
// Concurrency: constant values.
import Foundation

extension AVMetadataKey {
    /// The title ("com.apple.quicktime.title").
    public static let quickTimeMetadataKeyTitle = AVMetadataKey("com.apple.quicktime.title")
    /// The artist ("com.apple.quicktime.artist").
    public static let quickTimeMetadataKeyArtist = AVMetadataKey("com.apple.quicktime.artist")
    /// A description ("com.apple.quicktime.description").
    public static let quickTimeMetadataKeyDescription = AVMetadataKey("com.apple.quicktime.description")
    /// A comment ("com.apple.quicktime.comment").
    public static let quickTimeMetadataKeyComment = AVMetadataKey("com.apple.quicktime.comment")
    /// Where the recording was made, as an ISO 6709 string
    /// ("com.apple.quicktime.location.ISO6709").
    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey("com.apple.quicktime.location.ISO6709")
    /// The direction the camera faced ("com.apple.quicktime.direction.facing").
    public static let quickTimeMetadataKeyDirectionFacing = AVMetadataKey("com.apple.quicktime.direction.facing")
    /// The direction the camera moved ("com.apple.quicktime.direction.motion").
    public static let quickTimeMetadataKeyDirectionMotion = AVMetadataKey("com.apple.quicktime.direction.motion")
}

extension AVMetadataIdentifier {
    /// "mdta/com.apple.quicktime.title".
    public static let quickTimeMetadataTitle = AVMetadataIdentifier("mdta/com.apple.quicktime.title")
    /// "mdta/com.apple.quicktime.artist".
    public static let quickTimeMetadataArtist = AVMetadataIdentifier("mdta/com.apple.quicktime.artist")
    /// "mdta/com.apple.quicktime.description".
    public static let quickTimeMetadataDescription = AVMetadataIdentifier("mdta/com.apple.quicktime.description")
    /// "mdta/com.apple.quicktime.location.ISO6709".
    public static let quickTimeMetadataLocationISO6709 = AVMetadataIdentifier(
        "mdta/com.apple.quicktime.location.ISO6709")
    /// "mdta/com.apple.quicktime.direction.facing".
    public static let quickTimeMetadataDirectionFacing = AVMetadataIdentifier(
        "mdta/com.apple.quicktime.direction.facing")
}
