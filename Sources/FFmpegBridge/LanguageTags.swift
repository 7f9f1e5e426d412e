// Playhead: turns container language codes (ISO 639-2) into BCP 47 tags.

/// Language code conversion for track languages.
///
/// Concurrency: pure functions over constant tables.
package enum LanguageTags {
    /// ISO 639-2 (both /B and /T forms) to ISO 639-1 for the languages media commonly carries.
    package static let twoLetterCodes: [String: String] = [
        "eng": "en", "fre": "fr", "fra": "fr", "ger": "de", "deu": "de", "spa": "es", "ita": "it",
        "por": "pt", "rus": "ru", "jpn": "ja", "chi": "zh", "zho": "zh", "kor": "ko", "ara": "ar",
        "hin": "hi", "dut": "nl", "nld": "nl", "swe": "sv", "nor": "no", "nob": "nb", "dan": "da",
        "fin": "fi", "pol": "pl", "tur": "tr", "gre": "el", "ell": "el", "heb": "he", "cze": "cs",
        "ces": "cs", "hun": "hu", "rum": "ro", "ron": "ro", "ukr": "uk", "vie": "vi", "tha": "th",
        "ind": "id", "may": "ms", "msa": "ms", "per": "fa", "fas": "fa", "cat": "ca", "bul": "bg",
        "hrv": "hr", "srp": "sr", "slo": "sk", "slk": "sk", "slv": "sl", "est": "et", "lav": "lv",
        "lit": "lt", "ice": "is", "isl": "is", "gle": "ga", "wel": "cy", "cym": "cy", "baq": "eu",
        "eus": "eu", "glg": "gl", "tam": "ta", "tel": "te", "ben": "bn", "urd": "ur", "tgl": "tl",
        "fil": "fil", "lat": "la", "epo": "eo",
    ]

    /// The BCP 47 tag for a stored language code: two-letter codes and tags pass through,
    /// known three-letter codes shorten, others stay three-letter; nil for "und"/empty.
    package static func bcp47(_ code: String) -> String? {
        let lowered = code.lowercased()
        guard !lowered.isEmpty, lowered != "und", lowered != "mis", lowered != "zxx" else {
            return nil
        }
        if lowered.count == 3 { return twoLetterCodes[lowered] ?? lowered }
        return code
    }
}
