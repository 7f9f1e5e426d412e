// Playhead: the readable, column-aligned text form of a ProbeSummary.

extension ProbeSummary {
    /// The readable report `playhead probe` prints, without a final newline.
    ///
    /// Labels are aligned, absent fields are left out, and tracks form a table
    /// whose first three columns (id, media type, codec) line up.
    public var readableText: String {
        var rows: [(String, String)] = [
            ("Input", input),
            ("Container", containerText),
            ("Duration", MediaText.duration(durationSeconds)),
        ]
        if let bitRate { rows.append(("Bit rate", MediaText.bitRate(bitRate))) }
        rows.append(("Playable", isPlayable ? "yes" : "no"))
        if hasProtectedContent { rows.append(("Protected", "yes")) }
        if tracks.isEmpty { rows.append(("Tracks", "none")) }

        let labelWidth = "Container:".count + 2
        var lines = rows.map { label, value in
            Self.padded(label + ":", labelWidth) + Self.indentContinuation(value, by: labelWidth)
        }
        if !tracks.isEmpty {
            lines.append("Tracks:")
            lines.append(contentsOf: trackLines)
        }
        if !metadata.isEmpty {
            lines.append("Metadata:")
            lines.append(contentsOf: metadataLines)
        }
        if !chapters.isEmpty {
            lines.append("Chapters:")
            lines.append(contentsOf: chapterLines)
        }
        if !variants.isEmpty {
            lines.append("Variants:")
            lines.append(contentsOf: variantLines)
        }
        if !captions.isEmpty {
            lines.append("Captions:")
            lines.append(contentsOf: captionLines)
        }
        if !fonts.isEmpty {
            lines.append("Fonts:")
            lines.append(contentsOf: fonts.map { "  \($0.fileName)" + ($0.mimeType.map { "  (\($0))" } ?? "") })
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Pieces

    /// `QuickTime / MOV (mov,mp4,m4a,3gp,3g2,mj2)`, collapsing whichever part is missing.
    var containerText: String {
        switch (formatDescription.isEmpty, format.isEmpty) {
        case (false, false):
            return formatDescription == format ? format : "\(formatDescription) (\(format))"
        case (false, true): return formatDescription
        case (true, false): return format
        case (true, true): return "unknown"
        }
    }

    /// One line per track; id, media type and codec are padded to shared widths.
    var trackLines: [String] {
        let columns = tracks.map { track in
            ["#\(track.id)", track.mediaType, track.codecText] + track.detailTexts
        }
        let widths = (0..<3).map { index in columns.map { $0[index].count }.max() ?? 0 }
        return columns.map { cells in
            var line = "  "
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                line += index < 3 && !isLast ? Self.padded(cell, widths[index]) : cell
                if !isLast { line += "  " }
            }
            return line
        }
    }

    /// `  #1  250 kb/s  160x90  25 fps  PQ  avc1 aac` lines, one per variant (the range
    /// only when it is not SDR, the layouts only when the video is not plain flat video).
    var variantLines: [String] {
        variants.enumerated().map { index, variant in
            var cells = ["#\(index + 1)", variant.peakBitRate.map(MediaText.bitRate) ?? "rate not stated"]
            if let average = variant.averageBitRate { cells.append("average \(MediaText.bitRate(average))") }
            if let width = variant.width, let height = variant.height { cells.append("\(width)x\(height)") }
            if let frameRate = variant.frameRate { cells.append(MediaText.frameRate(frameRate)) }
            if let range = variant.videoRange, range != "SDR" { cells.append(range) }
            if variant.layouts.contains(where: { $0 != "mono rectangular" }) {
                cells.append(variant.layouts.joined(separator: " or "))
            }
            if !variant.codecs.isEmpty { cells.append(variant.codecs.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")) }
            return "  " + cells.joined(separator: "  ")
        }
    }

    /// `  #1  0:00.000 - 0:02.000  Title` lines, one per chapter.
    var chapterLines: [String] {
        chapters.enumerated().map { index, chapter in
            "  #\(index + 1)  \(MediaText.clock(chapter.start)) - \(MediaText.clock(chapter.end))  \(chapter.title)"
        }
    }

    /// `  CC1  eia_608  in video stream 0` lines, one per caption option, names aligned.
    var captionLines: [String] {
        let width = captions.map(\.name.count).max() ?? 0
        return captions.map { caption in
            var line = "  " + Self.padded(caption.name, width) + "  \(caption.codec)  \(caption.carriage)"
            if let language = caption.language { line += "  [\(language)]" }
            return line
        }
    }

    /// `  key:  value` lines with values aligned; later lines of a value are indented.
    var metadataLines: [String] {
        let width = (metadata.map(\.key.count).max() ?? 0) + 1 + 2
        return metadata.map { entry in
            "  " + Self.padded(entry.key + ":", width)
                + Self.indentContinuation(entry.value, by: 2 + width)
        }
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// Indents every line after the first by `width` spaces so it sits under the value.
    static func indentContinuation(_ value: String, by width: Int) -> String {
        value.split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: "\n" + String(repeating: " ", count: width))
    }
}

extension ProbeSummary.Track {
    /// `h264 (High)`, or just the codec when there is no profile.
    var codecText: String {
        profile.map { "\(codec) (\($0))" } ?? codec
    }

    /// The stated colour in short: the matrix (`BT.709`), then `PQ` or `HLG` for HDR.
    var colourText: String? {
        let matrices = [
            "ITU_R_601_4": "BT.601", "ITU_R_709_2": "BT.709", "ITU_R_2020": "BT.2020", "SMPTE_240M_1995": "SMPTE 240M",
        ]
        let transfers = ["SMPTE_ST_2084_PQ": "PQ", "ITU_R_2100_HLG": "HLG"]
        let parts = [colour["matrix"].flatMap { matrices[$0] }, colour["transfer"].flatMap { transfers[$0] }]
            .compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The optional cells after the codec, in a fixed order, skipping absent ones.
    var detailTexts: [String] {
        var cells: [String] = []
        if let width, let height { cells.append("\(width)x\(height)") }
        if let frameRate { cells.append(MediaText.frameRate(frameRate)) }
        if let rotation, rotation != 0 { cells.append("rotation \(rotation)°") }
        if let colourText { cells.append(colourText) }
        if let sampleRate { cells.append("\(sampleRate) Hz") }
        switch (channels, channelLayout) {
        case (let count?, let layout?): cells.append("\(count) ch (\(layout))")
        case (let count?, nil): cells.append("\(count) ch")
        case (nil, let layout?): cells.append(layout)
        case (nil, nil): break
        }
        if let bitRate { cells.append(MediaText.bitRate(bitRate)) }
        if let language { cells.append("[\(language)]") }
        if let title { cells.append("\"\(title)\"") }
        if isDefault { cells.append("default") }
        if isForced { cells.append("forced") }
        return cells
    }
}
