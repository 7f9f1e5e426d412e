// Playhead: the loader's HTTP requests finish while the app keeps every one of Dispatch's shared
// workers busy: URLSession's delegate calls run on a serial queue of the fetcher's own. It
// holds every shared worker of the test process while it runs, so it runs in the real-time
// pass, alone (other tests' work on those workers would wait meanwhile).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HTTPFetcherInRealTimeTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aRequestFinishesWhileEverySharedDispatchWorkerIsBusy() async throws {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        let body = Data("#EXTM3U\n".utf8)
        server.setRule(.content(body, contentType: "application/vnd.apple.mpegurl"), for: "/busy.m3u8")
        let url = server.url(for: "busy.m3u8")
        let fetched = try await offPool { () -> (Result<FetchedResource, FetchFailure>, Bool) in
            // Dispatch gives its shared (non-overcommitting) workers one thread per core, and a
            // few more at most while they block: these hold every one of them until the
            // request is done (five seconds at most), so its busy workers are `busy`.
            let released = Locked(false)
            let started = Locked(0)
            let deadline = Date(timeIntervalSinceNow: 5)
            for _ in 0..<64 {
                DispatchQueue.global().async {
                    started.withLock { $0 += 1 }
                    while !released.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                }
            }
            defer { released.withLock { $0 = true } }
            Thread.sleep(forTimeInterval: 0.2)
            let fetcher = HTTPFetcher(headers: [:], userAgent: "playhead-test")
            defer { fetcher.close() }
            let result = fetcher.fetch(url, secure: false, limit: 1 << 20, timeout: 10)
            return (result, started.withLock { $0 } < 64)
        }
        #expect((try? fetched.0.get().data) == body, "\(fetched.0)")
        #expect(fetched.1, "the request finished while the shared workers were all still busy")
    }
}
