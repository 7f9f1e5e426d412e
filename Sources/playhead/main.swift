// Playhead: the `playhead` executable, which runs the CLI and exits with its status.

import Foundation
import PlayheadCLI

let code = await Playhead.run(
    arguments: Array(CommandLine.arguments.dropFirst()), console: .standard)
exit(code.rawValue)
