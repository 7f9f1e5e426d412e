// Playhead: a format description's extensions (its codec's name, the colour its pictures are
// in), read with Core Media's functions and keys.
// Concurrency: immutable values; thread-safe.

/// Extension key: the YCbCr matrix of the pictures (a `kCMFormatDescriptionYCbCrMatrix_…`).
public let kCMFormatDescriptionExtension_YCbCrMatrix = "CVImageBufferYCbCrMatrix"
/// Extension key: the colour primaries (a `kCMFormatDescriptionColorPrimaries_…`).
public let kCMFormatDescriptionExtension_ColorPrimaries = "CVImageBufferColorPrimaries"
/// Extension key: the transfer function (a `kCMFormatDescriptionTransferFunction_…`).
public let kCMFormatDescriptionExtension_TransferFunction = "CVImageBufferTransferFunction"
/// Extension key: the codec's name, as the container or decoder gives it.
public let kCMFormatDescriptionExtension_FormatName = "FormatName"

/// The BT.709 matrix.
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_709_2 = "ITU_R_709_2"
/// The BT.601 matrix.
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"
/// The SMPTE 240M matrix.
public let kCMFormatDescriptionYCbCrMatrix_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The BT.2020 (non-constant luminance) matrix.
public let kCMFormatDescriptionYCbCrMatrix_ITU_R_2020 = "ITU_R_2020"

/// BT.709 primaries.
public let kCMFormatDescriptionColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
/// EBU Tech. 3213 primaries (625-line BT.601).
public let kCMFormatDescriptionColorPrimaries_EBU_3213 = "EBU_3213"
/// SMPTE C primaries (525-line BT.601).
public let kCMFormatDescriptionColorPrimaries_SMPTE_C = "SMPTE_C"
/// BT.2020 primaries.
public let kCMFormatDescriptionColorPrimaries_ITU_R_2020 = "ITU_R_2020"
/// Display P3 primaries.
public let kCMFormatDescriptionColorPrimaries_P3_D65 = "P3_D65"
/// DCI-P3 primaries.
public let kCMFormatDescriptionColorPrimaries_DCI_P3 = "DCI_P3"

/// BT.709's transfer function.
public let kCMFormatDescriptionTransferFunction_ITU_R_709_2 = "ITU_R_709_2"
/// SMPTE 240M's transfer function.
public let kCMFormatDescriptionTransferFunction_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The perceptual quantiser of HDR10 (SMPTE ST 2084).
public let kCMFormatDescriptionTransferFunction_SMPTE_ST_2084_PQ = "SMPTE_ST_2084_PQ"
/// Hybrid log-gamma (BT.2100).
public let kCMFormatDescriptionTransferFunction_ITU_R_2100_HLG = "ITU_R_2100_HLG"
/// BT.2020's transfer function (BT.709's curve).
public let kCMFormatDescriptionTransferFunction_ITU_R_2020 = "ITU_R_2020"
/// The sRGB curve.
public let kCMFormatDescriptionTransferFunction_sRGB = "IEC_sRGB"
/// Linear light.
public let kCMFormatDescriptionTransferFunction_Linear = "Linear"

/// The value of `desc`'s extension `extensionKey`, or nil.
///
/// - Note: Differs from Core Media: keys and values are strings (no Core Foundation on Linux);
///   `as? String`, as ported code reads a value, works on them.
public func CMFormatDescriptionGetExtension(_ desc: CMFormatDescription, extensionKey: String)
    -> String?
{
    desc.extensions[extensionKey]
}

/// Every extension of `desc` by key; nil when it has none.
public func CMFormatDescriptionGetExtensions(_ desc: CMFormatDescription) -> [String: String]? {
    desc.extensions.isEmpty ? nil : desc.extensions
}
