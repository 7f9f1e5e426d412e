// Playhead: the asynchronous-sequence form of image generation (`for await` over results).
//
// Concurrency: results are produced on the generator's work queue and yielded into an
// AsyncStream; the consumer iterates on its own task. Dropping the sequence early cancels the
// requests not yet generated (like cancelAllCGImageGeneration()).
import Foundation

extension AVAssetImageGenerator {
    /// Images for `times`, as an asynchronous sequence of results, one per time.
    ///
    /// ```swift
    /// for await result in generator.images(for: times) {
    ///     switch result {
    ///     case .success(let requested, let image, let actual): show(image, at: actual)
    ///     case .failure(let requested, let error): print(requested.seconds, error)
    ///     }
    /// }
    /// ```
    ///
    /// Results arrive in increasing time order (the order the times are decoded in).
    public func images(for times: [CMTime]) -> Images {
        let (stream, continuation) = AsyncStream<Images.Element>.makeStream()
        let settings = settingsSnapshot()
        let remaining = Locked(times.count)
        let generator = self
        continuation.onTermination = { termination in
            if case .cancelled = termination { generator.cancelAllCGImageGeneration() }
        }
        guard !times.isEmpty else {
            continuation.finish()
            return Images(stream: stream)
        }
        work.generate(times, settings: settings) { result in
            if let image = result.image {
                continuation.yield(.success(requestedTime: result.requestedTime, image: image, actualTime: result.actualTime))
            } else {
                let error = result.error ?? AVError(.unknown, description: "no image").nsError
                continuation.yield(.failure(requestedTime: result.requestedTime, error: error))
            }
            let left = remaining.withLock { count -> Int in
                count -= 1
                return count
            }
            if left == 0 { continuation.finish() }
        }
        return Images(stream: stream)
    }

    /// The results of `images(for:)`.
    public struct Images: AsyncSequence, Sendable {
        /// One requested time's outcome.
        public enum Element: @unchecked Sendable {
            /// The image for `requestedTime`, showing the frame at `actualTime`.
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            /// No image for `requestedTime`, and why.
            case failure(requestedTime: CMTime, error: any Error)

            /// The time asked for.
            public var requestedTime: CMTime {
                switch self {
                case .success(let time, _, _), .failure(let time, _): return time
                }
            }

            /// The image; throws the failure's error.
            public var image: CGImage {
                get throws {
                    switch self {
                    case .success(_, let image, _): return image
                    case .failure(_, let error): throw error
                    }
                }
            }

            /// The time of the frame shown; throws the failure's error.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case .success(_, _, let time): return time
                    case .failure(_, let error): throw error
                    }
                }
            }
        }

        let stream: AsyncStream<Element>

        /// Iterates the results.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            /// The next result, or nil after the last one.
            public mutating func next() async -> Element? { await base.next() }
        }

        /// An iterator over the results.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
    }
}
