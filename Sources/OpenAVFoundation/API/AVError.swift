// Playhead: AVFoundation's error domain and codes.
import Foundation

/// The error domain of errors OpenAVFoundation creates about media.
public let AVFoundationErrorDomain: String = "AVFoundationErrorDomain"

/// An error in `AVFoundationErrorDomain`, with a typed code.
///
/// Catch it with `catch let error as AVError where error.code == .fileFormatNotRecognized`,
/// or read any error as `NSError` and compare `domain` and `code`.
public struct AVError: CustomNSError, Hashable, Sendable {
    /// The codes OpenAVFoundation produces (Apple's values).
    public enum Code: Int, Sendable {
        /// Something failed that has no more specific code.
        case unknown = -11800
        /// Decoding media data failed.
        case decodeFailed = -11821
        /// The bytes are not a media format Playhead recognises.
        case fileFormatNotRecognized = -11828
        /// The format was recognised but the file could not be parsed (damaged or truncated).
        case fileFailedToParse = -11829
        /// The content is encrypted.
        case contentIsProtected = -11831
        /// No decoder exists for the media's codec.
        case decoderNotFound = -11833
        /// The asset has nothing this operation can work on (no audio or video).
        case operationNotSupportedForAsset = -11838
        /// Media data could not be loaded.
        case failedToLoadMediaData = -11849
        /// Media data could not be decoded.
        case undecodableMediaData = -11855
        /// The item can no longer be played.
        case noLongerPlayable = -11867
    }

    /// The error's code.
    public let code: Code
    /// Extra information: a description, the input and FFmpeg's own words.
    public let userInfo: [String: String]

    /// An error with `code` and the given description.
    public init(_ code: Code, description: String? = nil, userInfo: [String: String] = [:]) {
        self.code = code
        var info = userInfo
        if let description { info[NSLocalizedDescriptionKey] = description }
        self.userInfo = info
    }

    /// `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// `userInfo` as Foundation expects it.
    public var errorUserInfo: [String: Any] { userInfo }

    /// The error as an `NSError` in `AVFoundationErrorDomain`.
    public var nsError: NSError {
        NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: userInfo)
    }
}

extension AVError.Code {
    /// Errors of this code, for `error.code == AVError.fileFormatNotRecognized` style checks.
    public static func ~= (code: AVError.Code, error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == AVFoundationErrorDomain && error.code == code.rawValue
    }
}

extension AVError {
    /// Codes reachable as `AVError.x`, so `catch AVError.fileFormatNotRecognized` works.
    public static var unknown: Code { .unknown }
    public static var decodeFailed: Code { .decodeFailed }
    public static var fileFormatNotRecognized: Code { .fileFormatNotRecognized }
    public static var fileFailedToParse: Code { .fileFailedToParse }
    public static var contentIsProtected: Code { .contentIsProtected }
    public static var decoderNotFound: Code { .decoderNotFound }
    public static var operationNotSupportedForAsset: Code { .operationNotSupportedForAsset }
    public static var failedToLoadMediaData: Code { .failedToLoadMediaData }
    public static var undecodableMediaData: Code { .undecodableMediaData }
    public static var noLongerPlayable: Code { .noLongerPlayable }
}
