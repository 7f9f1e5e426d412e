// Playhead: the window holds the desktop's screensaver off while video plays: a fake
// org.freedesktop.ScreenSaver service (FakeScreenSaver) on a session bus the test starts sees
// an Inhibit when playback starts and the UnInhibit on pause, at the end and on close; with
// --allow-screensaver (preventsDisplaySleepDuringVideoPlayback false) it hears nothing. In the
// serialized PlayerWindowXTests suite (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    /// Starts playhead on a new bus with a fake screensaver service; stop both afterwards.
    private func launchWithScreenSaver(_ clip: URL, options: [String] = []) async throws
        -> (run: PlayheadRun, bus: SessionBus, service: FakeScreenSaver)
    {
        let binary = try #require(
            Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let bus = try await offPool { try SessionBus() }
        let service: FakeScreenSaver
        do { service = try await offPool { try FakeScreenSaver(bus: bus) } } catch {
            bus.stop()
            throw error
        }
        guard
            let box = XSession.launch(
                binary, ["--no-audio", "--no-mpris"] + options + [clip.path],
                display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        else {
            service.stop()
            bus.stop()
            throw XTestError("could not start playhead")
        }
        return (PlayheadRun(box: box), bus, service)
    }

    @Test func theScreensaverIsHeldWhileVideoPlaysAndReleasedOnPauseAndCloseOnTheSessionBus()
        async throws
    {
        let clip = try Self.longClip()
        let (run, bus, service) = try await launchWithScreenSaver(clip)
        defer {
            run.stop()
            service.stop()
            bus.stop()
        }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")

        let held = try await offPool { SessionBus.waitUntil(15) { service.heldCookies.count == 1 } }
        #expect(held, "no Inhibit while playing: \(service.calls)")
        #expect(
            service.calls.first
                == .inhibit(cookie: 1, application: "Playhead", reason: "Playing video"))

        focus(window)
        session.run("xdotool", ["key", "space"])  // pause
        let released = try await offPool {
            SessionBus.waitUntil(10) { service.heldCookies.isEmpty }
        }
        #expect(released, "the cookie is given back on pause: \(service.calls)")

        session.run("xdotool", ["key", "space"])  // play again
        let heldAgain = try await offPool {
            SessionBus.waitUntil(10) { service.heldCookies.count == 1 }
        }
        #expect(heldAgain, "held again when playback resumes: \(service.calls)")

        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
        #expect(service.heldCookies.isEmpty, "released on close: \(service.calls)")
        #expect(service.inhibitCount == 2, "one Inhibit per stretch of playing: \(service.calls)")
    }

    @Test func theScreensaverIsReleasedWhenPlaybackEndsOnTheSessionBus() async throws {
        let clip = try Fixture.url(.mp4)
        let (run, bus, service) = try await launchWithScreenSaver(clip)
        defer {
            run.stop()
            service.stop()
            bus.stop()
        }
        let held = try await offPool {
            SessionBus.waitUntil(15) { service.inhibitCount >= 1 || !run.box.process.isRunning }
        }
        #expect(held && service.inhibitCount >= 1, "no Inhibit while playing: \(service.calls)")
        #expect(await run.waitForExit(timeout: 30) == 0, "\(run.exitDescription)")
        #expect(service.heldCookies.isEmpty, "released at the end: \(service.calls)")
    }

    @Test func withAllowScreensaverNothingIsInhibitedOnTheSessionBus() async throws {
        let clip = try Self.longClip()
        let (run, bus, service) = try await launchWithScreenSaver(
            clip, options: ["--allow-screensaver"])
        defer {
            run.stop()
            service.stop()
            bus.stop()
        }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        try await Task.sleep(for: .milliseconds(2500))
        #expect(run.box.process.isRunning, "\(run.exitDescription)")
        focus(window)
        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
        #expect(
            service.calls.isEmpty, "preventsDisplaySleepDuringVideoPlayback false: \(service.calls)"
        )
    }
}
