// Playhead: the public errors for media that cannot be opened or played.
import FFmpegBridge
import Foundation

/// The userInfo key under which OpenAVFoundation errors carry the input they are about.
public let AVErrorPlayheadInputKey: String = "PlayheadInput"

extension MediaFailure {
    /// The failure as an `NSError` whose `localizedDescription` is the one-line reason.
    ///
    /// File system problems use `NSURLErrorDomain` codes (as Apple does for file URLs);
    /// media problems use `AVFoundationErrorDomain`.
    func nsError(input: String) -> NSError {
        let (domain, code) = domainAndCode
        return NSError(
            domain: domain, code: code,
            userInfo: [
                NSLocalizedDescriptionKey: reason,
                NSLocalizedFailureReasonErrorKey: reason,
                AVErrorPlayheadInputKey: input,
            ])
    }

    private var domainAndCode: (String, Int) {
        switch self {
        case .fileNotFound: return (NSURLErrorDomain, NSURLErrorFileDoesNotExist)
        case .isDirectory: return (NSURLErrorDomain, NSURLErrorFileIsDirectory)
        case .permissionDenied: return (NSURLErrorDomain, NSURLErrorNoPermissionsToReadFile)
        case .timedOut: return (NSURLErrorDomain, NSURLErrorTimedOut)
        case .cancelled: return (NSURLErrorDomain, NSURLErrorCancelled)
        case .unsupportedScheme: return (NSURLErrorDomain, NSURLErrorUnsupportedURL)
        case .emptyFile, .notMediaFile:
            return (AVFoundationErrorDomain, AVError.Code.fileFormatNotRecognized.rawValue)
        case .damaged: return (AVFoundationErrorDomain, AVError.Code.fileFailedToParse.rawValue)
        case .noAudioOrVideo:
            return (AVFoundationErrorDomain, AVError.Code.operationNotSupportedForAsset.rawValue)
        case .unsupportedCodec: return (AVFoundationErrorDomain, AVError.Code.decoderNotFound.rawValue)
        case .io: return (AVFoundationErrorDomain, AVError.Code.failedToLoadMediaData.rawValue)
        case .limitExceeded:
            return (AVFoundationErrorDomain, AVError.Code.undecodableMediaData.rawValue)
        case .protectedContent: return (AVFoundationErrorDomain, AVError.Code.contentIsProtected.rawValue)
        }
    }
}
