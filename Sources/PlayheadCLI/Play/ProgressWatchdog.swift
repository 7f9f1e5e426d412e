// Playhead: fails a playback that stops making progress, so `play` never hangs.
//
// Concurrency: main queue only.
import Foundation
import OpenAVFoundation

/// Calls back when the player's time has not moved for `limit` seconds while it should play.
/// Buffering that still makes headway (a slow network filling the buffer) counts as progress.
@MainActor
final class ProgressWatchdog {
    /// Seconds without progress that count as a hang.
    static let limit = 30.0
    /// Seconds between checks: a hang takes `limit` to call, so a few checks in it are enough
    /// (and a paused player is not woken every second).
    static let checkInterval = 5
    private let player: AVPlayer
    private var timer: DispatchSourceTimer?
    private var lastTime = CMTime.invalid
    private var lastLoadedEnd = CMTime.invalid
    private var idleSince = Date()

    init(player: AVPlayer) { self.player = player }

    /// Starts checking every `checkInterval` seconds.
    func start(onHang: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(
            deadline: .now() + .seconds(Self.checkInterval), repeating: .seconds(Self.checkInterval),
            leeway: .seconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let now = self.player.currentTime()
                let paused = self.player.rate == 0 && self.player.currentItem?.status == .readyToPlay
                let loadedEnd = self.player.currentItem?.loadedTimeRanges
                    .map { $0.timeRangeValue.end }.max() ?? .invalid
                if now != self.lastTime || paused || loadedEnd != self.lastLoadedEnd {
                    self.lastTime = now
                    self.lastLoadedEnd = loadedEnd
                    self.idleSince = Date()
                    // Paused, nothing can hang: look again only after `limit` (a hang after
                    // playing resumes still takes `limit` to call), so a paused player sleeps.
                    self.reschedule(every: paused ? Int(Self.limit) : Self.checkInterval)
                } else if Date().timeIntervalSince(self.idleSince) > Self.limit {
                    self.cancel()
                    onHang()
                }
            }
        }
        timer.resume()
        self.timer = timer
    }

    private var interval = checkInterval

    private func reschedule(every seconds: Int) {
        guard seconds != interval, let timer else { return }
        interval = seconds
        timer.schedule(deadline: .now() + .seconds(seconds), repeating: .seconds(seconds), leeway: .seconds(1))
    }

    /// Stops checking.
    func cancel() {
        timer?.cancel()
        timer = nil
    }
}
