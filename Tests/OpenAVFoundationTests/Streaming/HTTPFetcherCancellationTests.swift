// Playhead: stopping and closing the loader's HTTP fetcher while requests are in flight. Every
// fetch returns (the full body or `.cancelled`), none hangs, and FoundationNetworking is never
// asked to cancel a task it has retired (that traps the whole process). The races are provoked
// many times over; what is asserted holds at any machine speed. Each test blocks a thread of its
// own, never one of Swift's cooperative pool, which other tests' waits need.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HTTPFetcherCancellationTests {
    /// What one fetch came to, for counting.
    private enum Outcome: Hashable {
        case body, cancelled, other(String)
    }

    private static let body = Data((0..<2000).map { UInt8($0 % 251) })

    /// A server whose forty paths answer `body` after header delays spread over `delays`.
    private static func server(delays: ClosedRange<Double>) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        for index in 0..<40 {
            var rule = LoopbackHTTPServer.Rule.content(body, contentType: "video/mp2t")
            rule.headerDelay = delays.lowerBound + (delays.upperBound - delays.lowerBound) * Double(index) / 39
            server.setRule(rule, for: "/race\(index).ts")
        }
        return server
    }

    private static func outcome(_ result: Result<FetchedResource, FetchFailure>) -> Outcome {
        switch result {
        case .success(let fetched): return fetched.data == body ? .body : .other("\(fetched.data.count) bytes")
        case .failure(.cancelled): return .cancelled
        case .failure(let failure): return .other(failure.reason)
        }
    }

    /// Runs `work(thread, round)` on `threads` threads for `rounds` rounds each; false when
    /// they are not all done within `seconds`.
    private static func race(threads: Int, rounds: Int, seconds: Double, _ work: @escaping @Sendable (Int, Int) -> Void) -> Bool {
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                for round in 0..<rounds { work(thread, round) }
                group.leave()
            }
        }
        return group.wait(timeout: .now() + seconds) == .success
    }

    @Test func stoppingARequestAsItCompletesEndsItOneWayOrTheOther() async throws {
        try await offPool { try Self.stoppingARequestAsItCompletesEndsItOneWayOrTheOtherBlocking() }
    }

    private static func stoppingARequestAsItCompletesEndsItOneWayOrTheOtherBlocking() throws {
        // The first stop poll comes 20 ms after the request; the answers arrive 17 to 23 ms
        // after it, so the stop and the completion race.
        let server = try Self.server(delays: 0.017...0.023)
        defer { server.stop() }
        let outcomes = Locked([Outcome: Int]())
        let finished = Self.race(threads: 8, rounds: 60, seconds: TestTimeouts.scaled(600)) { thread, round in
            let fetcher = HTTPFetcher(headers: [:], userAgent: "playhead-test")
            defer { fetcher.close() }
            let url = server.url(for: "race\((round * 7 + thread) % 40).ts")
            let result = fetcher.fetch(url, secure: false, limit: 1 << 20, timeout: 30) { _, _ in .cancelled }
            outcomes.withLock { $0[Self.outcome(result), default: 0] += 1 }
        }
        #expect(finished, "every fetch returned")
        let counts = outcomes.withLock { $0 }
        #expect(counts.keys.allSatisfy { $0 == .body || $0 == .cancelled }, "\(counts)")
        #expect(counts.values.reduce(0, +) == 480)
    }

    @Test func closingAFetcherAsItsRequestCompletesEndsTheFetch() async throws {
        try await offPool { try Self.closingAFetcherAsItsRequestCompletesEndsTheFetchBlocking() }
    }

    private static func closingAFetcherAsItsRequestCompletesEndsTheFetchBlocking() throws {
        let server = try Self.server(delays: 0.002...0.008)
        defer { server.stop() }
        let outcomes = Locked([Outcome: Int]())
        let finished = Self.race(threads: 8, rounds: 60, seconds: TestTimeouts.scaled(600)) { thread, round in
            let fetcher = HTTPFetcher(headers: [:], userAgent: "playhead-test")
            let closing = DispatchWorkItem { fetcher.close() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.001 * Double(round % 10), execute: closing)
            let url = server.url(for: "race\((round * 7 + thread) % 40).ts")
            let result = fetcher.fetch(url, secure: false, limit: 1 << 20, timeout: 30)
            outcomes.withLock { $0[Self.outcome(result), default: 0] += 1 }
            closing.wait()
        }
        #expect(finished, "every fetch returned")
        let counts = outcomes.withLock { $0 }
        #expect(counts.keys.allSatisfy { $0 == .body || $0 == .cancelled }, "\(counts)")
        #expect(counts.values.reduce(0, +) == 480)
    }

    @Test func closingAFetcherEndsTheRequestItIsWaitingFor() async throws {
        try await offPool { try Self.closingAFetcherEndsTheRequestItIsWaitingForBlocking() }
    }

    private static func closingAFetcherEndsTheRequestItIsWaitingForBlocking() throws {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        var rule = LoopbackHTTPServer.Rule.content(Self.body, contentType: "video/mp2t")
        rule.headerDelay = 30
        server.setRule(rule, for: "/slow.ts")
        let fetcher = HTTPFetcher(headers: [:], userAgent: "playhead-test")
        let result = Locked<Result<FetchedResource, FetchFailure>?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fetched = fetcher.fetch(server.url(for: "slow.ts"), secure: false, limit: 1 << 20, timeout: 60)
            result.withLock { $0 = fetched }
            returned.signal()
        }
        let asked = Date(timeIntervalSinceNow: 10)
        while server.requests.isEmpty && Date() < asked { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.requests.map(\.path) == ["/slow.ts"])
        fetcher.close()
        #expect(returned.wait(timeout: .now() + 10) == .success, "the fetch returned once the fetcher closed")
        #expect(result.withLock { $0 }.map { Self.outcome($0) } == .cancelled)
    }

    @Test func aClosedFetcherAsksTheServerNothing() async throws {
        try await offPool { try Self.aClosedFetcherAsksTheServerNothingBlocking() }
    }

    private static func aClosedFetcherAsksTheServerNothingBlocking() throws {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        server.setRule(.content(Self.body, contentType: "video/mp2t"), for: "/after.ts")
        let fetcher = HTTPFetcher(headers: [:], userAgent: "playhead-test")
        fetcher.close()
        fetcher.close()
        let result = fetcher.fetch(server.url(for: "after.ts"), secure: false, limit: 1 << 20, timeout: 10)
        #expect(Self.outcome(result) == .cancelled)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(server.requests.isEmpty)
    }
}
