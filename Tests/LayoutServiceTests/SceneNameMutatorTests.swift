import Testing
@testable import LayoutService

/// The scene fuzz targets' structured mode (``SceneNameMutator``): each mutation writes
/// exactly the bytes it promises, and the seeds, mutated by it, keep ``SceneFuzz``'s
/// invariants (the structured mode of scripts/fuzz-scene-smoke.sh, replayed).
struct SceneNameMutatorTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func literalsAndKeys() {
        let body = bytes(#"{"views": ["K", "a\"b"], "x" :1}"#)
        let found = SceneNameMutator.literals(in: body)
        #expect(found.map { String(decoding: body[$0.content], as: UTF8.self) } == ["views", "K", #"a\"b"#, "x"])
        #expect(found.map(\.isKey) == [true, false, false, true])
    }

    @Test func aCombiningMarkAfterALetter() throws {
        let body = bytes(#"{"views":["ab"]}"#)
        let name = try #require(SceneNameMutator.literals(in: body).last).content
        #expect(text(SceneNameMutator.insertingMark(body, literal: name, offset: 0, mark: "\u{301}"))
            == "{\"views\":[\"a\u{301}b\"]}")
    }

    @Test func compatibilityLetters() throws {
        let body = bytes(#"{"views":["Kate"]}"#)
        let name = try #require(SceneNameMutator.literals(in: body).last).content
        #expect(text(SceneNameMutator.replacingLetter(body, literal: name, offset: 0, variant: 0)) == "{\"views\":[\"\u{212A}ate\"]}")
        #expect(text(SceneNameMutator.replacingLetter(body, literal: name, offset: 0, variant: 1)) == "{\"views\":[\"\u{FF2B}ate\"]}")
        #expect(text(SceneNameMutator.replacingLetter(body, literal: name, offset: 3, variant: 0)) == "{\"views\":[\"Kat\u{E9}\"]}")
        #expect(SceneNameMutator.replacingLetter(bytes(#"["12"]"#), literal: 2..<4, offset: 0, variant: 0) == nil)
    }

    @Test func aRepeatedMember() throws {
        let body = bytes(#"{"container":{"safeArea":{"top":1}},"views":["a", "b"],"options":{}}"#)
        let keys = SceneNameMutator.literals(in: body).filter(\.isKey).map(\.content)
        #expect(text(SceneNameMutator.repeatingMember(body, key: keys[2]))
            == #"{"container":{"safeArea":{"top":1,"top":1}},"views":["a", "b"],"options":{}}"#)
        #expect(text(SceneNameMutator.repeatingMember(body, key: keys[3]))
            == #"{"container":{"safeArea":{"top":1}},"views":["a", "b"],"views":["a", "b"],"options":{}}"#)
        #expect(text(SceneNameMutator.repeatingMember(body, key: keys[1]))
            == #"{"container":{"safeArea":{"top":1},"safeArea":{"top":1}},"views":["a", "b"],"options":{}}"#)
        #expect(SceneNameMutator.repeatingMember(bytes(#"{"a":[1"#), key: 2..<3) == nil)
    }

    @Test func aCopiedName() throws {
        let body = bytes(#"{"views":{"a":{},"b":{"parent":"c"}}}"#)
        let found = SceneNameMutator.literals(in: body).map(\.content)
        #expect(text(SceneNameMutator.copyingName(body, from: found[1], to: found[4])) == #"{"views":{"a":{},"b":{"parent":"a"}}}"#)
    }

    @Test func mutationsAreDeterministicAndWithinTheSize() {
        let body = bytes(#"{"container":{"width":100,"height":50},"views":["Kelvin","e"],"constraints":["H:|[Kelvin][e]|"]}"#)
        var changed = 0
        for seed in UInt32(0)..<200 {
            let once = SceneNameMutator.mutate(body, seed: seed, maxSize: 4096)
            #expect(once == SceneNameMutator.mutate(body, seed: seed, maxSize: 4096))
            #expect(SceneNameMutator.mutate(body, seed: seed, maxSize: body.count - 1).map { $0.count < body.count } ?? true)
            if let once, once != body { changed += 1 }
        }
        #expect(changed > 100, "\(changed)")
        #expect(SceneNameMutator.mutate(bytes("12345"), seed: 1, maxSize: 100) == nil)
    }

    /// The structured mode replayed: each seed under 8 KiB, mutated with 8 seeds, keeps
    /// the scene invariants (decoding, determinism with and without the template path,
    /// frames, `/validate`).
    @Test("structured mutations of the seeds keep the scene invariants")
    func mutatedSeeds() throws {
        let seeds = try SceneInvariantTests.files(in: "fuzz/scene/seeds").filter { $0.bytes.count < 8192 }
        #expect(seeds.count >= 10)
        var checked = 0
        for seed in seeds {
            for mutation in UInt32(0)..<8 {
                guard let mutated = SceneNameMutator.mutate(seed.bytes, seed: mutation, maxSize: 65536) else { continue }
                let failure = SceneFuzz.checkScene(mutated)
                #expect(failure == nil, "\(seed.name) mutation \(mutation): \(failure ?? "")")
                checked += 1
            }
        }
        #expect(checked >= 40, "\(checked)")
    }
}
