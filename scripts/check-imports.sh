#!/usr/bin/env bash
# Playhead: enforces which folders may import the C modules (style-anchors.md §8.2, rule 1).
#
# SwiftPM makes a C module visible to every target that depends on its importer, so the
# compiler alone cannot stop, say, OpenAVFoundation from writing `import CFFmpeg`. This check
# does. Usage: scripts/check-imports.sh [repo-root]   (default: the repository of this script)
set -euo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT"

# module prefix | folders allowed to import it (space separated)
RULES=(
    "CFFmpeg|Sources/FFmpegBridge Sources/CFFmpegShims"
    "CSDL2|Sources/OpenAVKit"
    "CPulse|Sources/OpenAVKit"
    "CDBus|Sources/OpenMediaPlayer"
)
SEARCH_DIRS=(Sources Tests Benchmarks Examples)

# Any `import`, optionally preceded by attributes (@testable, @_implementationOnly, ...) and an
# access level (internal import ...), or naming a single declaration (import struct CFFmpeg.X).
import_pattern() {
    local attributes='(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*'
    local access='((public|package|internal|fileprivate|private)[[:space:]]+)?'
    local kind='((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?'
    printf '^[[:space:]]*%s%simport[[:space:]]+%s%s' "$attributes" "$access" "$kind" "$1"
}

existing_dirs=()
for dir in "${SEARCH_DIRS[@]}"; do
    [[ -d "$dir" ]] && existing_dirs+=("$dir")
done
if [[ "${#existing_dirs[@]}" -eq 0 ]]; then
    echo "check-imports: nothing to check under $ROOT" >&2
    exit 0
fi

violations=0
for rule in "${RULES[@]}"; do
    module="${rule%%|*}"
    read -r -a allowed <<<"${rule#*|}"
    while IFS= read -r hit; do
        file="${hit%%:*}"
        permitted=0
        for folder in "${allowed[@]}"; do
            [[ "$file" == "$folder/"* ]] && permitted=1
        done
        if [[ "$permitted" -eq 0 ]]; then
            echo "error: $hit" >&2
            echo "       only ${allowed[*]} may import $module* (style-anchors.md §8.2 rule 1)" >&2
            violations=$((violations + 1))
        fi
    done < <(grep -rEn --include='*.swift' "$(import_pattern "$module")" "${existing_dirs[@]}" || true)
done

if [[ "$violations" -gt 0 ]]; then
    echo "check-imports: $violations forbidden C-module import(s); route the call through" \
        "FFmpegBridge (FFmpeg), OpenAVKit (SDL, PulseAudio) or OpenMediaPlayer (D-Bus) instead" >&2
    exit 1
fi
echo "check-imports: C-module imports are confined to their owners"
