// Playhead: a picture's or a stream's colour as Core Video and Core Media name it (the keys and
// values of pixel buffer attachments and of format description extensions, which are alike).
import FFmpegBridge

// Concurrency: pure functions.

/// Core Video's names for colour.
enum CoreVideoColourNames {
    /// The attachments or extensions for what `stated` says: the matrix (for YCbCr pictures),
    /// the primaries and the transfer function, where stated.
    static func values(of stated: StatedColour, isYCbCr: Bool) -> [String: String] {
        var values: [String: String] = [:]
        if isYCbCr, let matrix = stated.matrix.flatMap(name(of:)) {
            values[kCVImageBufferYCbCrMatrixKey] = matrix
        }
        if let primaries = stated.primaries {
            values[kCVImageBufferColorPrimariesKey] = name(of: primaries)
        }
        if let transfer = stated.transfer {
            values[kCVImageBufferTransferFunctionKey] = name(of: transfer)
        }
        return values
    }

    /// The attachments for a decoded picture: its matrix always (for YCbCr pictures: the
    /// stream's, or the guess it is shown with), primaries and transfer where stated.
    static func values(of colour: PictureColour, isYCbCr: Bool) -> [String: String] {
        values(
            of: StatedColour(
                matrix: colour.matrix, primaries: colour.primaries, transfer: colour.transfer),
            isYCbCr: isYCbCr)
    }

    /// Core Video's name for `matrix`; nil for the FCC's, which it does not name.
    static func name(of matrix: YCbCrMatrix) -> String? {
        switch matrix {
        case .bt601: return kCVImageBufferYCbCrMatrix_ITU_R_601_4
        case .bt709: return kCVImageBufferYCbCrMatrix_ITU_R_709_2
        case .bt2020: return kCVImageBufferYCbCrMatrix_ITU_R_2020
        case .smpte240m: return kCVImageBufferYCbCrMatrix_SMPTE_240M_1995
        case .fcc: return nil
        }
    }

    /// Core Video's name for `primaries`.
    static func name(of primaries: ColourPrimaries) -> String {
        switch primaries {
        case .bt709: return kCVImageBufferColorPrimaries_ITU_R_709_2
        case .ebu3213: return kCVImageBufferColorPrimaries_EBU_3213
        case .smpteC: return kCVImageBufferColorPrimaries_SMPTE_C
        case .bt2020: return kCVImageBufferColorPrimaries_ITU_R_2020
        case .p3D65: return kCVImageBufferColorPrimaries_P3_D65
        case .dciP3: return kCVImageBufferColorPrimaries_DCI_P3
        }
    }

    /// Core Video's name for `transfer`.
    static func name(of transfer: TransferFunction) -> String {
        switch transfer {
        case .bt709: return kCVImageBufferTransferFunction_ITU_R_709_2
        case .bt2020: return kCVImageBufferTransferFunction_ITU_R_2020
        case .smpte240m: return kCVImageBufferTransferFunction_SMPTE_240M_1995
        case .pq: return kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ
        case .hlg: return kCVImageBufferTransferFunction_ITU_R_2100_HLG
        case .sRGB: return kCVImageBufferTransferFunction_sRGB
        case .linear: return kCVImageBufferTransferFunction_Linear
        }
    }
}
