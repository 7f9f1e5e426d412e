// Playhead: the `--json` form of a ProbeSummary with its fixed key order.

extension ProbeSummary {
    /// The object `playhead probe --json` prints.
    ///
    /// Keys, in order: `duration`, `isPlayable`, `format`, `formatDescription`,
    /// `bitRate`, `hasProtectedContent`, `tracks`, `metadata`, `chapters` (each
    /// `{title, start, end}` in seconds; empty when none), `captions` (each
    /// `{name, codec, stream, inVideo, language}`; empty when none), `variants` (each
    /// `{peakBitRate, averageBitRate, width, height, codecs}`: an adaptive stream's), `fonts` (each
    /// `{fileName, mimeType}`: the container's attached fonts). Unknown values are
    /// `null`. `metadata` maps each key to its value; if a key repeats, the values
    /// are joined with `"; "` under the key's first position.
    public var jsonValue: JSONValue {
        var metadataObject = JSONObject()
        for entry in metadata {
            if case .string(let earlier)? = metadataObject[entry.key] {
                metadataObject[entry.key] = .string(earlier + "; " + entry.value)
            } else {
                metadataObject[entry.key] = .string(entry.value)
            }
        }
        return [
            "duration": JSONValue(durationSeconds),
            "isPlayable": .bool(isPlayable),
            "format": .string(format),
            "formatDescription": .string(formatDescription),
            "bitRate": JSONValue(bitRate),
            "hasProtectedContent": .bool(hasProtectedContent),
            "tracks": .array(tracks.map(\.jsonValue)),
            "metadata": .object(metadataObject),
            "chapters": .array(chapters.map { chapter in
                ["title": .string(chapter.title), "start": JSONValue(chapter.start), "end": JSONValue(chapter.end)]
            }),
            "captions": .array(captions.map { caption in
                [
                    "name": .string(caption.name), "codec": .string(caption.codec),
                    "stream": JSONValue(caption.streamIndex), "inVideo": .bool(caption.inVideo),
                    "language": JSONValue(caption.language),
                ]
            }),
            "variants": .array(variants.map { variant in
                [
                    "peakBitRate": JSONValue(variant.peakBitRate), "averageBitRate": JSONValue(variant.averageBitRate),
                    "width": JSONValue(variant.width), "height": JSONValue(variant.height),
                    "codecs": .array(variant.codecs.map { .string($0) }),
                    "frameRate": JSONValue(variant.frameRate), "videoRange": JSONValue(variant.videoRange),
                    "layouts": .array(variant.layouts.map { .string($0) }),
                ]
            }),
            "fonts": .array(fonts.map { font in
                ["fileName": .string(font.fileName), "mimeType": JSONValue(font.mimeType)]
            }),
        ]
    }
}

extension ProbeSummary.Track {
    /// One entry of the `tracks` array.
    ///
    /// The first ten keys are always present (`null` when they don't apply):
    /// `id`, `mediaType`, `codec`, `width`, `height`, `frameRate`, `sampleRate`,
    /// `channels`, `language`, `rotation`. Then `profile`, `channelLayout`, `bitRate`,
    /// `title` and `colour` (the stated `matrix`, `primaries` and `transfer`, by Core Video's
    /// names) appear only when known, and `default` always closes the object.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "id": .integer(id),
            "mediaType": .string(mediaType),
            "codec": .string(codec),
            "width": JSONValue(width),
            "height": JSONValue(height),
            "frameRate": JSONValue(frameRate),
            "sampleRate": JSONValue(sampleRate),
            "channels": JSONValue(channels),
            "language": JSONValue(language),
            "rotation": JSONValue(rotation),
        ]
        if let profile { object["profile"] = .string(profile) }
        if let channelLayout { object["channelLayout"] = .string(channelLayout) }
        if let bitRate { object["bitRate"] = .integer(bitRate) }
        if let title { object["title"] = .string(title) }
        if !colour.isEmpty {
            let order = ["matrix", "primaries", "transfer"]
            object["colour"] = .object(JSONObject(order.compactMap { key in colour[key].map { (key, JSONValue.string($0)) } }))
        }
        object["default"] = .bool(isDefault)
        if isForced { object["forced"] = .bool(true) }
        return .object(object)
    }
}
