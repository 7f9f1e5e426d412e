// Playhead: OpenAVFoundation re-exports OpenCoreMedia so one import brings CMTime along.
@_exported import OpenCoreMedia
