// Playhead: how a decoded picture's samples become colours: its YCbCr matrix, its range and
// the primaries and transfer its stream states.
internal import CFFmpeg

// Concurrency: plain values, read once from a frame the decoder no longer writes; any thread.

/// The matrix that turns a picture's Y, Cb and Cr into red, green and blue.
package enum YCbCrMatrix: String, Sendable, CaseIterable {
    /// ITU-R BT.601 (standard definition; SMPTE 170M and BT.470 BG use the same numbers).
    case bt601
    /// ITU-R BT.709 (high definition).
    case bt709
    /// ITU-R BT.2020, non-constant luminance (UHD and HDR).
    case bt2020
    /// SMPTE 240M (early HD).
    case smpte240m
    /// The FCC's 1953 numbers (old NTSC).
    case fcc

    /// FFmpeg's tag for this matrix.
    var ffmpegColorspace: AVColorSpace {
        switch self {
        case .bt601: return AVCOL_SPC_SMPTE170M
        case .bt709: return AVCOL_SPC_BT709
        case .bt2020: return AVCOL_SPC_BT2020_NCL
        case .smpte240m: return AVCOL_SPC_SMPTE240M
        case .fcc: return AVCOL_SPC_FCC
        }
    }

    /// The index of swscale's coefficient table for this matrix (`sws_getCoefficients`).
    var swscaleColorspace: Int32 {
        switch self {
        case .bt601: return SWS_CS_ITU601
        case .bt709: return SWS_CS_ITU709
        case .bt2020: return SWS_CS_BT2020
        case .smpte240m: return SWS_CS_SMPTE240M
        case .fcc: return SWS_CS_FCC
        }
    }
}

/// The colour primaries a stream states (how its red, green and blue are defined).
package enum ColourPrimaries: String, Sendable, CaseIterable {
    /// BT.709 / sRGB.
    case bt709
    /// BT.601 for 625-line systems (EBU Tech. 3213).
    case ebu3213
    /// BT.601 for 525-line systems (SMPTE C).
    case smpteC
    /// BT.2020 wide gamut.
    case bt2020
    /// Display P3 (D65 white).
    case p3D65
    /// DCI-P3 (cinema white).
    case dciP3
}

/// The transfer function a stream states (how sample values map to light).
package enum TransferFunction: String, Sendable, CaseIterable {
    /// BT.709's curve (also BT.601's).
    case bt709
    /// BT.2020's statement of the same curve (10- and 12-bit systems).
    case bt2020
    /// SMPTE 240M's curve.
    case smpte240m
    /// SMPTE ST 2084, the perceptual quantiser of HDR10.
    case pq
    /// ARIB STD-B67, hybrid log-gamma.
    case hlg
    /// IEC 61966-2-1, sRGB.
    case sRGB
    /// Linear light.
    case linear
}

/// How one picture's samples become colours.
package struct PictureColour: Sendable, Equatable {
    /// The YCbCr matrix: the stream's, or for an untagged picture BT.709 when it is high
    /// definition (1280 wide or more than 576 lines, as mpv and SDL guess) and BT.601 otherwise.
    package var matrix: YCbCrMatrix
    /// True when the samples span 0-255 (JPEG or "pc" range; an untagged grey picture too, as
    /// swscale reads it); false for video range (16-235).
    package var isFullRange: Bool
    /// True when the samples are Y, Cb and Cr (false for RGB, palette and grey pictures, whose
    /// matrix means nothing).
    package var isYCbCr: Bool
    /// The primaries the stream states; nil when it states none.
    package var primaries: ColourPrimaries?
    /// The transfer function the stream states; nil when it states none.
    package var transfer: TransferFunction?

    /// A colour description.
    package init(
        matrix: YCbCrMatrix, isFullRange: Bool, primaries: ColourPrimaries? = nil,
        transfer: TransferFunction? = nil
    ) {
        self.matrix = matrix
        self.isFullRange = isFullRange
        isYCbCr = true
        self.primaries = primaries
        self.transfer = transfer
    }

    /// True for FFmpeg's "J" formats, whose name says full range (as JPEG decoders give).
    private static func namesFullRange(_ format: AVPixelFormat) -> Bool {
        switch format {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P:
            return true
        default: return false
        }
    }

    /// The matrix guessed for an untagged picture of `width`×`height`.
    package static func untaggedMatrix(width: Int, height: Int) -> YCbCrMatrix {
        width >= 1280 || height > 576 ? .bt709 : .bt601
    }

    /// What `frame` states, with the guesses above for what it leaves out.
    init(_ frame: UnsafePointer<AVFrame>) {
        let value = frame.pointee
        let format = AVPixelFormat(value.format)
        let descriptor = av_pix_fmt_desc_get(format)?.pointee
        let flags = descriptor?.flags ?? 0
        let isGrey = descriptor.map { $0.nb_components <= 2 } ?? false
        // (FFmpeg 5.1 flags XYZ as neither RGB nor anything else.)
        let isXYZ = format == AV_PIX_FMT_XYZ12LE || format == AV_PIX_FMT_XYZ12BE
        isYCbCr =
            descriptor != nil && !isGrey && !isXYZ && flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
            && flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0
        isFullRange =
            value.color_range == AVCOL_RANGE_JPEG || Self.namesFullRange(format)
            || (isGrey && value.color_range != AVCOL_RANGE_MPEG)
        let stated = StatedColour(
            range: value.color_range, space: value.colorspace, primaries: value.color_primaries,
            transfer: value.color_trc)
        matrix = stated.matrix ?? Self.untaggedMatrix(width: Int(value.width), height: Int(value.height))
        primaries = stated.primaries
        transfer = stated.transfer
    }
}

/// What a stream or picture states of its colour; nil where it says nothing.
package struct StatedColour: Sendable, Equatable {
    /// The YCbCr matrix stated.
    package var matrix: YCbCrMatrix?
    /// The range stated: true for full ("pc"), false for video ("tv").
    package var isFullRange: Bool?
    /// The primaries stated.
    package var primaries: ColourPrimaries?
    /// The transfer function stated.
    package var transfer: TransferFunction?

    /// True when nothing is stated.
    package var isEmpty: Bool { matrix == nil && isFullRange == nil && primaries == nil && transfer == nil }

    /// A statement; everything left out is not stated.
    package init(
        matrix: YCbCrMatrix? = nil, isFullRange: Bool? = nil, primaries: ColourPrimaries? = nil,
        transfer: TransferFunction? = nil
    ) {
        self.matrix = matrix
        self.isFullRange = isFullRange
        self.primaries = primaries
        self.transfer = transfer
    }

    /// What FFmpeg's four colour tags state.
    init(
        range: AVColorRange, space: AVColorSpace, primaries: AVColorPrimaries,
        transfer: AVColorTransferCharacteristic
    ) {
        switch range {
        case AVCOL_RANGE_JPEG: isFullRange = true
        case AVCOL_RANGE_MPEG: isFullRange = false
        default: isFullRange = nil
        }
        switch space {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: matrix = .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        case AVCOL_SPC_SMPTE240M: matrix = .smpte240m
        case AVCOL_SPC_FCC: matrix = .fcc
        default: matrix = nil
        }
        switch primaries {
        case AVCOL_PRI_BT709: self.primaries = .bt709
        case AVCOL_PRI_BT470BG: self.primaries = .ebu3213
        case AVCOL_PRI_SMPTE170M, AVCOL_PRI_SMPTE240M: self.primaries = .smpteC
        case AVCOL_PRI_BT2020: self.primaries = .bt2020
        case AVCOL_PRI_SMPTE432: self.primaries = .p3D65
        case AVCOL_PRI_SMPTE431: self.primaries = .dciP3
        default: self.primaries = nil
        }
        switch transfer {
        case AVCOL_TRC_BT709, AVCOL_TRC_SMPTE170M: self.transfer = .bt709
        case AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12: self.transfer = .bt2020
        case AVCOL_TRC_SMPTE240M: self.transfer = .smpte240m
        case AVCOL_TRC_SMPTE2084: self.transfer = .pq
        case AVCOL_TRC_ARIB_STD_B67: self.transfer = .hlg
        case AVCOL_TRC_IEC61966_2_1: self.transfer = .sRGB
        case AVCOL_TRC_LINEAR: self.transfer = .linear
        default: self.transfer = nil
        }
    }
}
