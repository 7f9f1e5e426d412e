// Playhead: the HLS loader on content steering's pathways (HLSPathways.swift). Every variant
// (and audio rendition) is read from one pathway; its copies on the others are its backups.
// A new ranking from the steering server (HLSContentSteering.swift) moves every variant to the
// best-ranked pathway it has that has not failed lately, before the next segment is asked
// for: the next segments, playlists and initialisation sections come from there, matched by
// time (VOD) or media sequence number (live), so playback goes on without a break. When a
// pathway fails (a variant's playlist or segments cannot be had there), the variant turns to
// its next source in the ranking, and every other variant follows it to that pathway; the
// pathway left is not taken again for `penalty` seconds unless no other is left. A pathway the
// server clones (`PATHWAY-CLONES`) becomes one more source of every variant that has its base
// pathway, after its backups: read from the URL the clone gives (HLS), or, for a DASH
// Representation, its base location's playlist with every segment's URL cloned (the manifest
// is still read from where it was).
//
// Concurrency: `steer` and `currentPathway` may be called from any thread and take
// `condition`; the rest runs on the loader thread, whose `backupInUse`, `triedSources`,
// `pathwayPenalties`, `clonedSources` and `appliedPriorityVersion` are.
import Foundation

/// A variant's source on a cloned pathway: the pathway, where its playlist is read, the
/// source it copies and how.
struct ClonedSource {
    let pathway: String
    let url: URL
    let base: Int
    let clone: HLSPathwayClone
}

extension HLSStreamLoader {
    /// Seconds a pathway that failed is passed over.
    static let pathwayPenalty = 300.0

    /// Takes a ranking of the pathways from the steering server (best first) and the pathways
    /// it clones: applied before the next segment is asked for, by this loader and its
    /// renditions' loaders.
    func steer(_ priority: [String], clones: [HLSPathwayClone] = []) {
        condition.lock()
        state.pathwayPriority = priority
        state.pathwayClones = clones
        state.priorityVersion += 1
        let renditions = renditionLoaders
        condition.broadcast()
        condition.unlock()
        for loader in renditions { loader.steer(priority, clones: clones) }
    }

    /// How many sources variant `index` has: its own URI, its backups, its clones.
    func sourceCount(_ index: Int) -> Int { 1 + variants[index].backups.count + (clonedSources[index]?.count ?? 0) }

    /// Where variant `index` is read from on `source` (0 its own URI, then its backups, then
    /// its clones).
    func sourceURL(_ index: Int, _ source: Int) -> URL {
        let backups = variants[index].backups
        if source == 0 { return variants[index].url }
        if source <= backups.count { return backups[source - 1] }
        return clonedSources[index]?[source - 1 - backups.count].url ?? variants[index].url
    }

    /// Variant `index`'s `source` when it is on a cloned pathway.
    func clonedSource(_ index: Int, _ source: Int) -> ClonedSource? {
        let position = source - 1 - variants[index].backups.count
        guard position >= 0, let list = clonedSources[index], list.indices.contains(position) else { return nil }
        return list[position]
    }

    /// For a DASH variant on `source`: the source whose playlist the manifest gives (its own,
    /// a backup's: none is cloned) and the clones to apply to it, outermost first.
    func manifestSource(_ index: Int, _ source: Int) -> (source: Int, clones: [HLSPathwayClone]) {
        var (source, clones) = (source, [HLSPathwayClone]())
        while formatName == "dash", let cloned = clonedSource(index, source), cloned.base < source {
            clones.append(cloned.clone)
            source = cloned.base
        }
        return (source, clones)
    }

    /// Variant `index`'s playlist on `source`: `read` gives it on the source the manifest
    /// is read from (`source` itself, or on a cloned DASH location the base location's), and
    /// the clones in between are applied to it.
    func clonedPlaylist(
        _ index: Int, _ source: Int, read: (_ source: Int) -> HLSMediaPlaylist?
    ) -> HLSMediaPlaylist? {
        let (base, clones) = manifestSource(index, source)
        var playlist = read(base)
        for clone in clones.reversed() { playlist = playlist?.cloned(by: clone) }
        return playlist
    }

    /// The pathway of variant `index`'s `source`.
    func sourcePathway(_ index: Int, _ source: Int) -> String {
        let backups = variants[index].backups.count
        if source <= backups { return variants[index].pathway(ofSource: source) }
        return clonedSources[index]?[source - 1 - backups].pathway ?? variants[index].pathway
    }

    /// Adds the sources of `clones` whose pathway is new: each variant with a source on a
    /// clone's base pathway gains one on the clone.
    private func addSources(of clones: [HLSPathwayClone]) {
        for clone in clones {
            let known = variants.indices.contains { index in (0..<sourceCount(index)).contains { sourcePathway(index, $0) == clone.id } }
            guard !known else { continue }
            for index in variants.indices {
                guard let base = (0..<sourceCount(index)).first(where: { sourcePathway(index, $0) == clone.baseID }) else { continue }
                // A DASH Representation's "playlist URL" names the manifest, read where it was.
                let url =
                    formatName == "dash"
                    ? sourceURL(index, base)
                    : clone.url(cloning: sourceURL(index, base), stableID: variants[index].stableID, isRendition: rendition != nil)
                clonedSources[index, default: []].append(ClonedSource(pathway: clone.id, url: url, base: base, clone: clone))
            }
        }
    }

    /// Gives the loader a client reading the stream's steering manifests at `url` (the first
    /// after `wait` seconds) by `settings`, naming the pathway playing and the throughput last
    /// measured to the stream's server, its rankings steering this loader; set before the
    /// stream is opened, started when an engine takes the stream, closed with the loader.
    func steerBy(_ url: URL, after wait: Double, settings: HLSContentSteering.Settings, log: StreamingLog) {
        let server = Self.serverKey(variants[0].url)
        let client = HLSContentSteering(
            url: url, wait: wait, settings: settings, log: log,
            pathway: { [weak self] in settings.dialect == .dash ? self?.pathwaysUsedSinceAsk() : self?.currentPathway },
            throughput: { ProcessThroughput.lastEstimate(for: server) },
            apply: { [weak self] manifest in self?.steer(manifest.priority, clones: manifest.clones) })
        condition.lock()
        steering = client
        condition.unlock()
    }

    /// The pathway the bytes come from now.
    var currentPathway: String {
        condition.lock()
        defer { condition.unlock() }
        return state.pathway
    }

    /// DASH's `_DASH_pathway`: every pathway the bytes came from since the last time this was
    /// asked, in the order used, the one playing last (comma-separated); from now on, the one
    /// playing.
    func pathwaysUsedSinceAsk() -> String {
        condition.lock()
        defer { condition.unlock() }
        var used: [String] = []
        for pathway in state.pathwaysSinceAsk where pathway != state.pathway && !used.contains(pathway) {
            used.append(pathway)
        }
        state.pathwaysSinceAsk = []
        return (used + [state.pathway]).joined(separator: ",")
    }

    /// Applies a ranking taken since the last one applied: every variant moves to the best
    /// pathway it has that has not failed lately (or the best, when all have).
    func applySteeringIfChanged() {
        condition.lock()
        let (priority, clones, version, playing) = (state.pathwayPriority, state.pathwayClones, state.priorityVersion, state.pathway)
        condition.unlock()
        guard version != appliedPriorityVersion else { return }
        appliedPriorityVersion = version
        addSources(of: clones)
        let now = Date()
        let offered = priority.filter { pathway in
            variants.indices.contains { index in (0..<sourceCount(index)).contains { sourcePathway(index, $0) == pathway } }
        }
        let usable = offered.filter { (pathwayPenalties[$0] ?? .distantPast) <= now }
        guard let target = (usable.isEmpty ? offered : usable).first, target != playing else { return }
        // (The first ranking, from the open, moves away from a pathway nothing came from.)
        move(to: target, recordingLeft: !(startsSteered && version == 1))
    }

    /// The sources of variant `index` (0 its own URI, N its backup N - 1) in the order the
    /// latest ranking puts their pathways (those it does not name after, in the order listed).
    func sourcesByPriority(of index: Int) -> [Int] {
        condition.lock()
        let priority = state.pathwayPriority
        condition.unlock()
        let sources = Array(0..<sourceCount(index))
        guard !priority.isEmpty else { return sources }
        func rank(_ source: Int) -> Int { priority.firstIndex(of: sourcePathway(index, source)) ?? priority.count }
        return sources.sorted { (rank($0), $0) < (rank($1), $1) }
    }

    /// A variant failed on `left` and turned to `reached`: `left` is passed over for a while
    /// and the other variants follow to `reached`.
    func leavePathway(_ left: String, for reached: String, except index: Int) {
        pathwayPenalties[left] = Date(timeIntervalSinceNow: Self.pathwayPenalty)
        move(to: reached, except: index)
    }

    /// Reads every variant (but `skipped`) that has a source on `pathway` from there;
    /// `recordingLeft`: the pathway left counts as used (DASH's `_DASH_pathway`).
    private func move(to pathway: String, except skipped: Int? = nil, recordingLeft: Bool = true) {
        for index in variants.indices where index != skipped {
            guard let source = (0..<sourceCount(index)).first(where: { sourcePathway(index, $0) == pathway }),
                source != self.source(of: index)
            else { continue }
            use(source: source, for: index)
            triedSources[index] = [source]
        }
        condition.lock()
        if state.pathway != pathway && recordingLeft { state.pathwaysSinceAsk.append(state.pathway) }
        state.pathway = pathway
        condition.unlock()
    }
}
