// Playhead: inputs the fuzzer (`make fuzz`) once crashed, hung or leaked on, kept as base64 so
// the test target needs no resource files. Add one entry per fixed finding:
//
//   base64 -w0 .build/fuzz/artifacts/crash-<sha1>     # paste as `bytes`
//
// `FuzzRegressionTests` runs each through `MediaExercise` (open, probe, demux, seek, decode).

/// One saved fuzzer input.
struct FuzzRegressionInput: Sendable, CustomStringConvertible {
    /// What it found and where it was fixed, e.g. "crash-1a2b…: Demuxer.seek on empty file".
    let name: String
    /// The file name extension the harness used (the input's last byte picks it).
    let fileExtension: String
    /// The input, base64.
    let bytes: String

    var description: String { name }
}

enum FuzzRegressionInputs {
    /// Every saved input. Empty so far: 60 s and longer `make fuzz` runs found no crash, hang
    /// or leak in Playhead's code (see README "Development").
    static let all: [FuzzRegressionInput] = []
}
