import Testing
@testable import LayoutService

/// `RequestIDs`: the identifiers a request without its own `X-Request-Id` gets.
struct RequestIDTests {
    @Test func identifiersAreSixteenLowercaseHexDigitsAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let id = RequestIDs.next()
            #expect(id.utf8.count == 16)
            #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
    }

    @Test func digitsAreTheValueMostSignificantFirst() {
        #expect(RequestIDs.hex(0) == "0000000000000000")
        #expect(RequestIDs.hex(0x0123_4567_89AB_CDEF) == "0123456789abcdef")
        #expect(RequestIDs.hex(.max) == "ffffffffffffffff")
    }

    /// SplitMix64's published first outputs for seed 0 (the state advances by the golden
    /// gamma before mixing), as in the reference implementation by Vigna
    /// (https://prng.di.unimi.it/splitmix64.c).
    @Test func mixIsSplitMix64sOutputFunction() {
        let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
        #expect(RequestIDs.mix(gamma) == 0xE220_A839_7B1D_CDAF)
        #expect(RequestIDs.mix(gamma &* 2) == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func anAnswerWithoutAClientIdentifierGetsAFreshOne() {
        let first = LayoutService.requestID(nil)
        let second = LayoutService.requestID("")
        #expect(first.utf8.count == 16 && second.utf8.count == 16)
        #expect(first != second)
        #expect(LayoutService.requestID("abc-123") == "abc-123")
    }
}
