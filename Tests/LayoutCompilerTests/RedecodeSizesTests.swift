@testable import LayoutCompiler
import Testing

/// ``SceneDecoder/plainContainerSize(_:)``, the resize path's reading of a container's
/// size without a tape, against the tape's reading (``SceneDecoder/redecodeSizesFromTape(_:of:)``).
struct RedecodeSizesTests {
    @Test func plainContainerSizesAreReadAsTheTapeReadsThem() throws {
        let decoder = SceneDecoder()
        let scene = try decoder.decode(body: Array(#"{"container":{"width":375,"height":667},"views":["a"],"constraints":["H:|[a]|","V:|[a]|"],"sizes":[{"width":1}]}"#.utf8))
        // (sizes, the width and height the fast path reads, or nil when it leaves them to the tape)
        let cases: [(String, (Double?, Double?)?)] = [
            (#"{}"#, (nil, nil)),
            (#"{"container":{}}"#, (nil, nil)),
            (#"{"container":{"width":320.0001}}"#, (320.0001, nil)),
            (#"{"container":{"height":10,"width":0}}"#, (0, 10)),
            (#"{"container":{"width":-0}}"#, (-0.0, nil)),
            (#"{"container":{"width":1e12,"height":0.5}}"#, (1e12, 0.5)),
            (#"{"container":{"width":-1}}"#, nil),
            (#"{"container":{"width":1.0000001e12}}"#, nil),
            (#"{"container":{"width":1,"width":2}}"#, nil),
            (#"{"container":{"height":1,"height":1}}"#, nil),
            (#"{"container":{"width":"1"}}"#, nil),
            (#"{"container":{"width":null}}"#, nil),
            (#"{"container":{"width":1,"height":2,"margins":{}}}"#, nil),
            (#"{"container":{"depth":1}}"#, nil),
            (#"{"container":[]}"#, nil),
            (#"{"sizes":[{"width":1}]}"#, nil),
            (#"{"container":{"width":1},"sizes":[{"width":2}]}"#, nil),
            (#"{"sizes":[]}"#, nil),
        ]
        for (text, expected) in cases {
            let json = try JSONParser().parse(Array(text.utf8))
            let fast = SceneDecoder.plainContainerSize(json)
            let tape = decoder.redecodeSizesFromTape(json, of: scene)
            #expect((fast == nil) == (expected == nil), "\(text)")
            guard let fast, let expected else { continue }
            #expect(fast.width?.bitPattern == expected.0?.bitPattern && fast.height?.bitPattern == expected.1?.bitPattern, "\(text)")
            // What the fast path reads, the tape accepts and reads the same.
            let read = try #require(tape, "\(text)")
            #expect(read.container.size.width?.bitPattern == fast.width?.bitPattern, "\(text)")
            #expect(read.container.size.height?.bitPattern == fast.height?.bitPattern, "\(text)")
            #expect(read.sizes == nil, "\(text)")
            let resized = try #require(decoder.redecodeSizes(json, of: scene))
            #expect(resized.container.size == read.container.size && resized.sizes == nil && resized.views.count == scene.views.count)
        }
    }
}
