#!/usr/bin/env python3
# Playhead: writes the dense karaoke ASS script of the `karaoke-1080p30` benchmark fixture
# (Benchmarks/subtitles.sh) on stdout. Deterministic: the same script on every machine.
#
# Six lines on screen at every moment (two sung lines at the bottom, their romaji and
# translation above them, a scrolling-free "chorus" pair at the top), five styles with
# outlines, shadows and blur, syllables timed with \k, \kf (a sweep, so the picture changes
# on every frame) and \ko, and a new event starting about every 0.3 s.
import random
import sys

DURATION = 30.0
rng = random.Random(18)  # issue 18

SYLLABLES = ["ka", "ra", "o", "ke", "shi", "n", "no", "yo", "ru", "ha", "na", "mi", "to",
             "ki", "so", "ra", "wa", "ta", "su", "me", "ni", "ko", "e", "ai", "mo", "de"]
WORDS = ["light", "over", "the", "city", "we", "sing", "until", "morning", "comes", "again",
         "stars", "falling", "into", "your", "hands", "tonight", "forever", "dreaming"]

HEADER = """[Script Info]
; Playhead benchmark: dense karaoke (issue 18)
ScriptType: v4.00+
PlayResX: 1920
PlayResY: 1080
WrapStyle: 0
ScaledBorderAndShadow: yes
YCbCr Matrix: TV.709

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: KaraLow,DejaVu Sans,78,&H00FFFFFF,&H000030FF,&H00401000,&H96000000,-1,0,0,0,100,100,2,0,1,5,4,2,60,60,40,1
Style: KaraHigh,DejaVu Serif,72,&H00F0F0FF,&H00FF9020,&H00100040,&H96000000,-1,0,0,0,100,100,1,0,1,4.5,3.5,2,60,60,140,1
Style: Romaji,DejaVu Sans,52,&H00E0FFFF,&H0000C0FF,&H00202020,&H80000000,0,0,0,0,100,100,0,0,1,3,2,2,60,60,240,1
Style: Translation,DejaVu Serif,46,&H00FFFFFF,&H00FFFFFF,&H00303030,&H80000000,0,-1,0,0,100,100,0,0,1,2.5,2,2,60,60,320,1
Style: Chorus,DejaVu Sans,60,&H00C0FFC0,&H00FF00FF,&H00004000,&HA0000000,-1,0,0,0,100,100,3,0,1,4,3,8,60,60,40,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
"""


def stamp(seconds):
    centis = int(round(seconds * 100))
    return "%d:%02d:%02d.%02d" % (centis // 360000, centis // 6000 % 60, centis // 100 % 60, centis % 100)


def karaoke_line(tag, length, words=False):
    """A line of syllables with karaoke timing totalling about `length` seconds."""
    parts = []
    count = rng.randint(8, 12) if not words else rng.randint(5, 8)
    for _ in range(count):
        centis = rng.randint(18, 34)
        text = rng.choice(WORDS) + " " if words else rng.choice(SYLLABLES)
        if not words and rng.random() < 0.25:
            text += " "
        parts.append("{\\%s%d}%s" % (tag, centis, text))
    return "".join(parts).rstrip()


def main():
    out = sys.stdout
    out.write(HEADER)
    events = []
    # (style, line length s, stagger s, tag, override tags, words?)
    slots = [
        ("KaraLow", 3.6, 0.0, "kf", "{\\blur1.5}", False),
        ("KaraHigh", 3.6, 1.8, "kf", "{\\blur1.5\\fad(150,150)}", False),
        ("Romaji", 3.0, 0.5, "k", "{\\be1}", False),
        ("Translation", 3.0, 2.0, "ko", "", True),
        ("Chorus", 2.4, 0.3, "kf", "{\\blur2\\3c&H005000&}", False),
        ("Chorus", 2.4, 1.5, "k", "{\\an7\\pos(80,160)\\blur1}", True),
    ]
    for style, length, stagger, tag, override, words in slots:
        start = stagger - length  # a line is already showing at 0
        while start < DURATION:
            end = start + length
            if end > 0:
                text = override + karaoke_line(tag, length, words)
                events.append((max(0.0, start), min(DURATION, end), style, text))
            start = end
    events.sort()
    for start, end, style, text in events:
        out.write("Dialogue: 0,%s,%s,%s,,0,0,0,,%s\n" % (stamp(start), stamp(end), style, text))


if __name__ == "__main__":
    main()
