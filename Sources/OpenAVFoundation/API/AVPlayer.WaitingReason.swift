// Playhead: why a player is waiting to play.

extension AVPlayer {
    /// The reason `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    public struct WaitingReason: RawRepresentable, Hashable, Sendable {
        /// The reason's name.
        public let rawValue: String
        /// The reason with this name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Waiting for more data so that playback does not stall soon after starting.
        public static let toMinimizeStalls = WaitingReason(
            rawValue: "AVPlayerWaitingToMinimizeStallsReason")
        /// Measuring whether data arrives fast enough; brief, usually not worth showing.
        public static let evaluatingBufferingRate = WaitingReason(
            rawValue: "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        /// There is no item to play.
        public static let noItemToPlay = WaitingReason(
            rawValue: "AVPlayerWaitingWithNoItemToPlayReason")
    }
}
