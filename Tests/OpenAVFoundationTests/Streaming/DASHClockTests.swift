// Playhead: tests for reading the clock a live DASH manifest names (DASHClock.swift): which
// `UTCTiming` schemes are read, the dates a time server may answer with, and the offset to
// the machine's clock, on a virtual clock.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHClockTests {
    let base = URL(string: "https://live.example/channel/manifest.mpd")!
    let machine = Date(timeIntervalSince1970: 1_800_000_000)

    private func mpd(_ timings: String, type: String = "dynamic") -> Data {
        Data(
            """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" availabilityStartTime="2027-01-15T08:00:00Z">
            <Period id="p" start="PT0S"/>
            \(timings)
            </MPD>
            """.utf8)
    }

    @Test func theSchemesReadAreDirectAnISODateAndADateFieldFromAServerInTheOrderGiven() {
        let data = mpd(
            """
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-head:2014" value="https://time.example/"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="/time?iso https://other.example/t"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2012" value="https://time.example/iso"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2027-01-15T08:00:10.250Z"/>
            <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="soon"/>
            """)
        #expect(
            DASHManifest.clockSources(data, base: base) == [
                .serverHeader(URL(string: "https://time.example/")!),
                .server(URL(string: "https://live.example/time?iso")!),
                .server(URL(string: "https://time.example/iso")!),
                .direct(Date(timeIntervalSince1970: 1_800_000_010.25)),
            ])
        // A static manifest is not timed by any clock.
        #expect(DASHManifest.clockSources(mpd(#"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2027-01-15T08:00:10Z"/>"#, type: "static"), base: base).isEmpty)
    }

    @Test func aTimeServersAnswerIsAnISODateWithOrWithoutQuotesAndSpace() {
        #expect(DASHManifest.serverDate(Data("2027-01-15T08:00:00.500Z\n".utf8)) == Date(timeIntervalSince1970: 1_800_000_000.5))
        #expect(DASHManifest.serverDate(Data("\"2027-01-15T08:00:00Z\"".utf8)) == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(DASHManifest.serverDate(Data("<html>not a date</html>".utf8)) == nil)
        #expect(DASHManifest.serverDate(Data(repeating: 0x32, count: 1_000)) == nil, "too long to be a date")
    }

    @Test func theOffsetIsTheServersTimeAgainstTheMiddleOfItsRequest() {
        // The machine's clock reads 100 s at the request and 100.4 s at the answer; the
        // server said 130.2 s: it is 30 s ahead.
        var readings = [machine.addingTimeInterval(100), machine.addingTimeInterval(100.4)]
        let server = URL(string: "https://time.example/iso")!
        var asked: [URL] = []
        let offset = DASHManifest.clockOffset(
            from: [.server(server)], received: machine,
            ask: { url in
                asked.append(url)
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                return Data(formatter.string(from: self.machine.addingTimeInterval(130.2)).utf8)
            }, now: { readings.isEmpty ? self.machine.addingTimeInterval(100.4) : readings.removeFirst() })
        #expect(asked == [server])
        #expect(abs((offset ?? 0) - 30) < 1e-3, "\(String(describing: offset))")
    }

    @Test func aDateFieldIsAnHTTPDateToTheSecondTakenForTheMiddleOfItsSecond() {
        #expect(DASHManifest.headerDate("Fri, 15 Jan 2027 08:00:00 GMT") == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(DASHManifest.headerDate(" Fri, 15 Jan 2027 08:00:07 GMT ") == Date(timeIntervalSince1970: 1_800_000_007))
        #expect(DASHManifest.headerDate("2027-01-15T08:00:00Z") == nil, "not an HTTP date")
        #expect(DASHManifest.headerDate("Fri, 15 Jan 2027 08:00:00 +0100") == nil, "HTTP dates are GMT")
        // The machine reads 100 s at the request and 100.4 s at the answer; the field says
        // 130 s, which stands for some moment of that second: 130.5 s against 100.2 s.
        var readings = [machine.addingTimeInterval(100), machine.addingTimeInterval(100.4)]
        let server = URL(string: "https://time.example/")!
        var asked: [URL] = []
        let offset = DASHManifest.clockOffset(
            from: [.serverHeader(server)], received: machine, ask: { _ in nil },
            askHeader: { url in
                asked.append(url)
                return "Fri, 15 Jan 2027 08:02:10 GMT"
            }, now: { readings.isEmpty ? self.machine.addingTimeInterval(100.4) : readings.removeFirst() })
        #expect(asked == [server])
        #expect(abs((offset ?? 0) - 30.3) < 1e-3, "\(String(describing: offset))")
        // A server that sends no field gives way to the next source.
        let next = DASHManifest.clockOffset(
            from: [.serverHeader(server), .direct(machine.addingTimeInterval(2))], received: machine, ask: { _ in nil },
            askHeader: { _ in nil })
        #expect(next == 2)
    }

    @Test func aSourceThatDoesNotAnswerGivesWayToTheNextAndNoneLeavesTheMachinesClock() {
        let dead = URL(string: "https://dead.example/time")!
        let direct = machine.addingTimeInterval(-3)
        // The direct date stands against when the manifest arrived: 3 s behind.
        let offset = DASHManifest.clockOffset(from: [.server(dead), .direct(direct)], received: machine) { _ in nil }
        #expect(offset == -3)
        #expect(DASHManifest.clockOffset(from: [.server(dead)], received: machine) { _ in Data("garbage".utf8) } == nil)
        #expect(DASHManifest.clockOffset(from: [], received: machine) { _ in nil } == nil)
    }
}

/// The packager's clock once measured: it runs on by the time since boot, whatever the
/// machine's clock does meanwhile.
@Suite struct DASHPackagerClockTests {
    let machine = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aMeasuredClockRunsOnByTheTimeSinceBootNotByTheMachinesClock() {
        // Measured 30 s ahead of the machine at 100 s after boot.
        let clock = DASHPackagerClock(offset: 30, at: machine, sinceBoot: 100)
        #expect(clock.now(date: machine, sinceBoot: 100) == machine.addingTimeInterval(30))
        // 10 s later the machine's clock was set 5 minutes ahead (NTP at a kiosk's boot):
        // the packager's time is still 10 s on.
        #expect(clock.now(date: machine.addingTimeInterval(310), sinceBoot: 110) == machine.addingTimeInterval(40))
    }

    @Test func withoutAMeasurementTheMachinesClockIsFollowedWhenItIsSet() {
        let clock = DASHPackagerClock.machine
        #expect(clock.now(date: machine, sinceBoot: 100) == machine)
        #expect(clock.now(date: machine.addingTimeInterval(310), sinceBoot: 110) == machine.addingTimeInterval(310))
    }

    @Test func theTimeSinceBootRuns() {
        let first = DASHPackagerClock.secondsSinceBoot()
        usleep(20_000)
        let second = DASHPackagerClock.secondsSinceBoot()
        #expect(first > 0 && second - first >= 0.015 && second - first < 5)
    }
}
