// Playhead: the window's own seeks reach the desktop: a seek with the arrow key is announced as
// MPRIS Seeked on a session bus the test starts (a dbus-daemon), seen with dbus-monitor; in the
// serialized PlayerWindowXTests suite (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    @Test func aSeekFromTheWindowIsAnnouncedAsSeekedOnTheSessionBus() async throws {
        let binary = try #require(Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let clip = try Self.longClip()
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio", clip.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy", "DBUS_SESSION_BUS_ADDRESS": bus.address]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
        let player = ["-p", "playhead"]
        let playing = try await offPool { SessionBus.waitUntil { bus.playerctlOutput(player + ["status"]) == "Playing" } }
        #expect(playing, "playerctl never saw the window playing")
        let monitor = try await offPool {
            try BusMonitor(bus: bus, rule: "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
        }
        defer { monitor.stop() }

        focus(window)
        session.run("xdotool", ["key", "Right"])  // seek 5 s forward
        let announced = try await offPool { SessionBus.waitUntil { monitor.output.contains("member=Seeked") } }
        #expect(announced, "no Seeked on the bus after the window's seek")
        let position = try await offPool { bus.playerctlOutput(player + ["position"]).flatMap(Double.init) }
        #expect((position ?? 0) >= 5, "position after a 5 s seek from the start: \(position ?? -1)")

        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
    }
}
