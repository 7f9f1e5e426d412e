// Playhead: the server address the access and error logs report is an IP address.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct ServerAddressBookTests {
    @Test func addressesAreKeptAndNamesAreResolved() throws {
        #expect(ServerAddressBook.address(of: URL(string: "http://192.0.2.7:8080/a.ts")!) == "192.0.2.7")
        #expect(ServerAddressBook.address(of: URL(string: "http://[2001:db8::1]/a.ts")!) == "2001:db8::1")
        let local = try #require(ServerAddressBook.address(of: URL(string: "http://localhost:1/a.ts")!))
        #expect(["127.0.0.1", "::1"].contains(local), "\(local)")
        #expect(ServerAddressBook.address(of: URL(string: "file:///etc/passwd")!) == nil)
        #expect(!ServerAddressBook.isAddress("media.example") && ServerAddressBook.isAddress("::1"))
    }
}
