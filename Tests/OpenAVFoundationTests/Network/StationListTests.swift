// Playhead: a radio station's plain list of streams (M3U without HLS tags, PLS) at a network
// URL plays its first entry that opens (a dead mirror is passed over); what it names is refused
// by the same rules as a playlist's segments, a web page is not a list, and lists of lists end
// three deep.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@MainActor
@Suite struct StationListTests {
    @Test func entriesAreReadFromAPlainM3UAndFromAPLSInTheirOrder() {
        let base = URL(string: "https://radio.example/lists/station.m3u")!
        let m3u = "\u{FEFF}#EXTM3U\r\n#EXTINF:-1,Station\r\nstream.mp3\r\n\r\n# a mirror\r\n  https://mirror.example/live  \r\n"
        #expect(StationList.entries(of: m3u, base: base).map(\.absoluteString)
            == ["https://radio.example/lists/stream.mp3", "https://mirror.example/live"])
        let pls = "[playlist]\nNumberOfEntries=2\nFile2=https://b.example/live\nTitle1=One\nFile1=https://a.example/live\nLength1=-1\nVersion=2\n"
        #expect(StationList.entries(of: pls, base: base).map(\.absoluteString) == ["https://a.example/live", "https://b.example/live"])
        #expect(StationList.entries(of: "#EXTM3U\n#EXTINF:-1,Nothing\n", base: base).isEmpty)
    }

    @Test func theEntriesTheListMayOpenAreKeptInOrderElseTheFirstRefusalSaysWhy() throws {
        let entries = ["file:///etc/passwd", "http://plain.example/live", "https://a.example/live", "ftp://f.example/a"]
            .map { URL(string: $0)! }
        #expect(try StationList.playable(entries, secure: true).get().map(\.absoluteString) == ["https://a.example/live"])
        #expect(try StationList.playable(entries, secure: false).get().map(\.absoluteString)
            == ["http://plain.example/live", "https://a.example/live"])
        #expect(StationList.playable(Array(entries.prefix(2)), secure: true)
            == .failure(.io(detail: "refused file URL in a remote playlist")))
        #expect(StationList.playable([], secure: false) == .failure(.io(detail: "the list of streams names no stream")))
        #expect(StationList.playable(Array(entries.suffix(1)), secure: false)
            == .failure(.io(detail: "refused ftp URL in a remote playlist")))
        #expect(StationList.isWebPage("\u{FEFF}\n  <!DOCTYPE html><html>"))
        #expect(!StationList.isWebPage("#EXTM3U\nhttp://radio.example/<live>\n"))
    }

    @Test func aListIsToldFromAnHLSPlaylistAndFromMediaByItsFirstBytes() {
        #expect(StreamedOpen.kind(ofStart: Data("#EXTM3U\n#EXTINF:-1,Radio\nhttp://radio.example/stream\n".utf8)) == .stationList)
        #expect(StreamedOpen.kind(ofStart: Data("\r\n[Playlist]\nFile1=http://radio.example/stream\n".utf8)) == .stationList)
        #expect(StreamedOpen.kind(ofStart: Data("#EXTM3U\n#EXT-X-VERSION:3\n".utf8)) == .hls)
        #expect(StationList.startsLikeList(Data("http://radio.example/stream\n".utf8)))
        #expect(!StationList.startsLikeList(Data([0x49, 0x44, 0x33, 0x03, 0x00, 0x00])), "an MP3's ID3 tag")
        #expect(!StationList.startsLikeList(Data([0xFF, 0xFB, 0x90, 0x64])), "an MP3 frame")
        #expect(!StationList.startsLikeList(Data("OggS".utf8) + Data([0, 2])), "an Ogg page")
        // Older lists are Latin-1: read as such when they are not UTF-8.
        let latin1 = Data("#EXTM3U\n#EXTINF:-1,Radio Caf".utf8) + Data([0xE9]) + Data("\nhttp://radio.example/live\n".utf8)
        #expect(StationList.startsLikeList(Data([0xEF, 0xBB, 0xBF]) + latin1))
        #expect(StationList.text(of: latin1)?.contains("Radio Café") == true)
    }

    @Test func anM3UListPlaysItsStream() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(
            .content(Data("#EXTM3U\n#EXTINF:-1,Test station\nprogressive.mp4\n".utf8), contentType: "audio/x-mpegurl"),
            for: "/station.m3u")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "station.m3u")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        #expect(played.sink.count > 90, "4 s at 25 fps: \(played.sink.count) frames")
        let paths = server.requests.map(\.path)
        #expect(paths.first == "/station.m3u" && paths.dropFirst().allSatisfy { $0 == "/progressive.mp4" }, "\(paths)")
        #expect(paths.filter { $0 == "/station.m3u" }.count == 1, "the list is read once: \(paths)")
    }

    @Test func aPLSListAtAnAPIPathPlaysTheHLSStreamItNames() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(
            .content(Data("[playlist]\nNumberOfEntries=1\nFile1=hls/index.m3u8\nTitle1=Test\n".utf8), contentType: "audio/x-scpls"),
            for: "/listen")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "listen?station=4")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        #expect(played.sink.count > 90, "4 s at 25 fps: \(played.sink.count) frames")
        #expect(server.requests.contains { $0.path == "/hls/index.m3u8" })
    }

    @Test func aListNamingOnlyALocalFileFailsSayingSo() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.content(Data("file:///etc/passwd\n".utf8), contentType: "audio/x-mpegurl"), for: "/bad.m3u")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "bad.m3u")))
        #expect(played.item.status == .failed)
        let message = (played.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("refused file URL in a remote playlist"), "\(message)")
        #expect(played.sink.count == 0)
    }

    @Test func listsOfListsEndThreeDeep() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        for (list, next) in [("a", "b.m3u"), ("b", "c.m3u"), ("c", "progressive.mp4"), ("d", "a.m3u")] {
            server.setRule(.content(Data("\(next)\n".utf8), contentType: "audio/x-mpegurl"), for: "/\(list).m3u")
        }
        // Three lists deep plays.
        let played = await playUntimed(AVURLAsset(url: server.url(for: "a.m3u")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        // Four do not.
        let deeper = await playUntimed(AVURLAsset(url: server.url(for: "d.m3u")))
        #expect(deeper.item.status == .failed)
        let message = (deeper.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("nested more than 3 deep"), "\(message)")
    }

    @Test func aDeadFirstEntryIsPassedOverForTheNext() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let list = "#EXTM3U\n#EXTINF:-1,Mirror gone\nmissing.mp4\n#EXTINF:-1,Mirror\nprogressive.mp4\n"
        server.setRule(.content(Data(list.utf8), contentType: "audio/x-mpegurl"), for: "/mirrors.m3u")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "mirrors.m3u")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        #expect(played.sink.count > 90, "4 s at 25 fps: \(played.sink.count) frames")
        let paths = server.requests.map(\.path)
        #expect(Array(paths.prefix(2)) == ["/mirrors.m3u", "/missing.mp4"], "\(paths)")
        #expect(paths.dropFirst(2).allSatisfy { $0 == "/progressive.mp4" } && paths.count > 2, "\(paths)")
    }

    @Test func theMirrorThatOpenedIsTriedFirstWhenTheStationIsPlayedAgain() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        // (A list path of its own: the memory outlives the test, and another server may get
        // the same port.)
        let list = "#EXTM3U\n#EXTINF:-1,Mirror gone\nmissing.mp4\n#EXTINF:-1,Mirror\nprogressive.mp4\n"
        server.setRule(.content(Data(list.utf8), contentType: "audio/x-mpegurl"), for: "/again.m3u")
        let first = await playUntimed(AVURLAsset(url: server.url(for: "again.m3u")))
        #expect(first.reachedEnd, "\(String(describing: first.item.error))")
        #expect(server.requests.map(\.path).contains("/missing.mp4"))
        // The station tapped again, as radio apps do: a new asset and item of the same list.
        var before = server.requests.count
        let again = await playUntimed(AVURLAsset(url: server.url(for: "again.m3u")))
        #expect(again.reachedEnd, "\(String(describing: again.item.error))")
        #expect(again.sink.count > 90, "4 s at 25 fps: \(again.sink.count) frames")
        var paths = server.requests.dropFirst(before).map(\.path)
        #expect(paths.first == "/again.m3u" && !paths.contains("/missing.mp4") && paths.contains("/progressive.mp4"), "\(paths)")
        // The remembered mirror dies too: the others are tried in the list's order after it,
        // and the failure told is that of the entry the list names first.
        server.setRule(.serverError, for: "/progressive.mp4")
        before = server.requests.count
        let dead = await playUntimed(AVURLAsset(url: server.url(for: "again.m3u")))
        #expect(dead.item.status == .failed)
        paths = server.requests.dropFirst(before).map(\.path)
        let (remembered, other) = (paths.firstIndex(of: "/progressive.mp4"), paths.firstIndex(of: "/missing.mp4"))
        #expect(paths.first == "/again.m3u" && remembered != nil && other != nil && remembered! < other!, "\(paths)")
        let message = (dead.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("not found (HTTP 404)"), "\(message)")
    }

    @Test func aMirrorServingAWebPageIsPassedOverAndAnEntryListedTwiceIsTriedOnce() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        // The first mirror answers 200 with an error page where the stream should be (the
        // container's open reads it and fails); it is listed twice.
        let page = String(repeating: "<html><body>Station offline</body></html>\n", count: 200)
        server.setRule(.content(Data(page.utf8), contentType: "text/html"), for: "/live.mp3")
        let list = "[playlist]\nFile1=live.mp3\nFile2=live.mp3\nFile3=progressive.mp4\nNumberOfEntries=3\n"
        server.setRule(.content(Data(list.utf8), contentType: "audio/x-scpls"), for: "/station.pls")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "station.pls")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        #expect(played.sink.count > 90, "4 s at 25 fps: \(played.sink.count) frames")
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/live.mp3" }.count <= 2, "once per open (inspection, play): \(paths)")
        #expect(paths.contains("/progressive.mp4"), "\(paths)")
    }

    @Test func aListWhoseEntriesAllFailSaysWhyTheFirstDid() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.content(Data("gone-a.mp4\ngone-b.mp4\n".utf8), contentType: "audio/x-mpegurl"), for: "/dead.m3u")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "dead.m3u")))
        #expect(played.item.status == .failed)
        #expect(server.requests.map(\.path) == ["/dead.m3u", "/gone-a.mp4", "/gone-b.mp4"])
        #expect(played.item.error != nil && played.sink.count == 0)
    }

    @Test func aWebPageAtAListsAddressFailsSayingSo() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let page = "<!DOCTYPE html>\n<html><body>\nStation offline\n</body></html>\n"
        server.setRule(.content(Data(page.utf8), contentType: "text/html"), for: "/station.pls")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "station.pls")))
        #expect(played.item.status == .failed)
        let message = (played.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("a web page, not a list of streams"), "\(message)")
        #expect(server.requests.map(\.path) == ["/station.pls"], "nothing the page says is asked for")
    }
}
