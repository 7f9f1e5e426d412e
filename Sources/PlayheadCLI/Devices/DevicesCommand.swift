// Playhead: `playhead devices [--json]`, which lists the sound server's output devices.
import Foundation
import OpenAVKit

/// The `devices` command: the sinks `--audio-device` (and `AVPlayer.audioOutputDeviceUniqueID`)
/// can name, the default one marked.
public enum DevicesCommand {
    /// The `--json` flag.
    static let jsonOption = CommandOption.flag("json", help: "Print a JSON array instead of the table.")

    /// Builds the `devices` command.
    public static func command() -> Command {
        Command(
            name: "devices",
            abstract: "List the sound server's output devices for --audio-device.",
            discussion: """
                One device per line: its name (what --audio-device takes), its channels and \
                rate, and its description; * marks the default device, where playback goes \
                without --audio-device (and goes on following it when the desktop changes it). \
                Exits 1 when no sound server answers.
                """,
            options: [jsonOption]
        ) { context in
            let devices: [AudioOutputDevice]
            do {
                devices = try await Task.detached { try PlayheadAudio.outputDevices() }.value
            } catch {
                throw InputFailure(input: "sound server", error: error)
            }
            context.console.writeOutput(render(devices, asJSON: context.arguments.flag(jsonOption.name)))
            return .success
        }
    }

    /// The table (or JSON array) for `devices`.
    static func render(_ devices: [AudioOutputDevice], asJSON: Bool) -> String {
        if asJSON {
            let array: [JSONValue] = devices.map { device in
                var object: JSONObject = [:]
                object["uniqueID"] = .string(device.uniqueID)
                object["name"] = .string(device.name)
                object["channels"] = .integer(device.channelCount)
                object["sampleRate"] = .integer(device.sampleRate)
                object["isDefault"] = .bool(device.isDefault)
                return .object(object)
            }
            return JSONValue.array(array).formatted(.pretty) + "\n"
        }
        let width = devices.map(\.uniqueID.count).max() ?? 0
        return devices.map { device in
            let mark = device.isDefault ? "* " : "  "
            let id = device.uniqueID.padding(toLength: max(width, 1), withPad: " ", startingAt: 0)
            return "\(mark)\(id)  \(device.channelCount) ch, \(device.sampleRate) Hz  \(device.name)\n"
        }.joined()
    }
}
