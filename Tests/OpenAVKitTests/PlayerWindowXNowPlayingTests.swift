// Playhead: a player window's own now-playing session (`updatesNowPlayingInfoCenter`, on by
// default as AVPlayerViewController's): the CustomControls example, which wires no
// MediaPlayer API itself, is shown by playerctl on a session bus the test starts, and
// playerctl's pause, position and play reach its player. In the serialized PlayerWindowXTests
// suite (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    @Test func aPlayerWindowIsShownOnTheDesktopAndTakesItsTransportCommands() async throws {
        let example = try Self.customControlsExample()
        let clip = try Self.longClip()
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let box = try #require(
            XSession.launch(
                example, [clip.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy", "DBUS_SESSION_BUS_ADDRESS": bus.address]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        _ = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
        let player = ["-p", "playhead"]
        let shown = try await offPool { () -> (Bool, String?) in
            let playing = SessionBus.waitUntil {
                bus.playerctlOutput(player + ["status"]) == "Playing"
            }
            return (playing, bus.playerctlOutput(player + ["metadata", "title"]))
        }
        #expect(shown.0, "playerctl never saw the window playing")
        #expect(
            shown.1 == clip.lastPathComponent, "the title is the file's name: \(shown.1 ?? "none")")
        let length = try await offPool {
            bus.playerctlOutput(player + ["metadata", "mpris:length"]).flatMap(Double.init)
        }
        #expect(abs((length ?? 0) - 20_000_000) < 100_000, "mpris:length \(length ?? -1)")

        // The desktop's pause, position and play reach the window's player.
        let paused = try await offPool { () -> Bool in
            _ = try? bus.playerctl(player + ["pause"])
            return SessionBus.waitUntil { bus.playerctlOutput(player + ["status"]) == "Paused" }
        }
        #expect(paused, "playerctl pause did not pause the window")
        let moved = try await offPool { () -> Double? in
            _ = try? bus.playerctl(player + ["position", "12"])
            _ = SessionBus.waitUntil {
                (bus.playerctlOutput(player + ["position"]).flatMap(Double.init) ?? 0) >= 12
            }
            return bus.playerctlOutput(player + ["position"]).flatMap(Double.init)
        }
        #expect(
            (12..<13).contains(moved ?? 0), "position after playerctl position 12: \(moved ?? -1)")
        let resumed = try await offPool { () -> Bool in
            _ = try? bus.playerctl(player + ["play"])
            return SessionBus.waitUntil { bus.playerctlOutput(player + ["status"]) == "Playing" }
        }
        #expect(resumed, "playerctl play did not resume the window")

        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
        // The window closed: its session went with it, and the name with the process.
        let gone = try await offPool {
            SessionBus.waitUntil { !(bus.playerctlOutput(["-l"]) ?? "").contains("playhead") }
        }
        #expect(gone)
    }
}
