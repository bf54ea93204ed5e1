// Shared by the scene libFuzzer targets (fuzz/scene/FuzzScene.swift, fuzz/scene/FuzzSvg.swift,
// built by scripts/fuzz-scene-smoke.sh with this file) and SceneInvariantTests, which
// replays fuzz/regressions/{scene,svg}/ with the same settings on every `swift test`.
// No Testing import: each check returns the first invariant an input breaks, or nil.
@testable import LayoutCompiler
@testable import LayoutService

/// The settings and invariants of the scene fuzz targets.
enum SceneFuzz {
    /// Default limits except the solver work: 10⁶ cell operations per request (a hundredth
    /// of the service's default), so that no input holds the fuzzer for long.
    static let limits: SceneLimits = {
        var limits = SceneLimits()
        limits.maxSolverWork = 1_000_000
        return limits
    }()

    /// The groups a fuzzed scene can include: `g` (versions 1 and 2) and `m`, whose
    /// metric `pad` overrides the scene's; any other name or version is unknown (422).
    static func resolveGroup(_ reference: GroupReference) -> ResolvedGroup? {
        switch (reference.name, reference.version) {
        case ("g", nil), ("g", 2):
            return ResolvedGroup(name: "g", version: 2, constraints: [
                ConstraintEntry(kind: .visualFormat(options: []), source: "H:|-[a]-|"),
                ConstraintEntry(kind: .equation, source: "a.height == 44 @750"),
            ], metrics: [:])
        case ("g", 1):
            return ResolvedGroup(name: "g", version: 1, constraints: [
                ConstraintEntry(kind: .equation, source: "a.width == superview.width / 2"),
            ], metrics: [:])
        case ("m", nil):
            return ResolvedGroup(name: "m", version: 1, constraints: [
                ConstraintEntry(kind: .visualFormat(options: ["alignAllTop"]), source: "H:|-pad-[a]-pad-[b]"),
            ], metrics: ["pad": 3])
        default:
            return nil
        }
    }

    /// One answer: what the service would send for a body (status, media type, bytes).
    struct Answer: Equatable {
        var status: Int
        var contentType: String
        var body: [UInt8]
    }

    /// Prepares `body` with `engine` and answers it as `/solve` does (JSON, or the SVG
    /// wireframe when `svg`): the prepared scene too when it decoded.
    static func answer(_ body: [UInt8], engine: SceneEngine, svg: Bool) -> (Answer, SceneEngine.Prepared?) {
        switch engine.prepare(body: body, resolveGroup: resolveGroup) {
        case .success(let prepared):
            let answer = svg ? engine.solveSVG(prepared) : engine.solve(prepared)
            return (Answer(status: answer.status.code, contentType: answer.contentType, body: answer.body), prepared)
        case .failure(let failure):
            let answer = engine.problem(status: failure.status, diagnostics: failure.diagnostics)
            return (Answer(status: answer.status.code, contentType: answer.contentType, body: answer.body), nil)
        }
    }

    /// The invariants of bytes → JSON → scene → compile → solve, for any input:
    /// - the answer is 200 `application/json`, or 400/422 problem details with at least
    ///   one diagnostic, and its body is JSON;
    /// - determinism: an engine without a structure cache, and one with it answering the
    ///   same body twice (a miss, then the template and structure-cache path), give the
    ///   same status and bytes;
    /// - a scene that compiles has one layout per size, each with one frame per view;
    ///   a layout that is not rejected has only finite frames within ±``maximumMagnitude``;
    /// - `/validate` of the same scene is a 200 `{"valid", "diagnostics"}`.
    static func checkScene(_ body: [UInt8]) -> String? {
        let plain = SceneEngine(limits: limits)
        let cached = SceneEngine(limits: limits, structureCacheEntries: 8, structureCacheBytes: 64 << 20)
        let (first, prepared) = answer(body, engine: plain, svg: false)
        let (second, _) = answer(body, engine: cached, svg: false)
        let (third, _) = answer(body, engine: cached, svg: false)
        if first != second { return "the structure-cached engine answered differently (\(first.status) vs \(second.status))" }
        if first != third { return "a repeated body answered differently from the structure cache (\(first.status) vs \(third.status))" }
        if let failure = checkJSONAnswer(first) { return failure }
        guard let prepared else { return nil }

        let (compiled, layouts) = plain.compileAndSolve(prepared)
        if !compiled.hasErrors {
            let sizes = prepared.scene.sizes?.count ?? 1
            if layouts.count != sizes { return "\(layouts.count) layouts for \(sizes) sizes" }
            for layout in layouts where !layout.isRejected {
                if layout.frames.count != compiled.hierarchy.count {
                    return "\(layout.frames.count) frames for \(compiled.hierarchy.count) views"
                }
                for (name, frame) in layout.frames {
                    for value in [frame.x, frame.y, frame.width, frame.height] where !(abs(value) <= maximumMagnitude) {
                        return "frame of '\(name)' has \(value) in a layout that was not rejected"
                    }
                }
            }
        }
        let validation = plain.validate(prepared)
        if validation.status != 200 { return "/validate answered \(validation.status)" }
        guard let json = try? JSONParser(maximumDepth: 16).parse(validation.body),
              case .bool = json["valid"], json["diagnostics"]?.arrayValue != nil else {
            return "/validate answered no {valid, diagnostics} object"
        }
        return nil
    }

    /// A JSON answer's shape: 200 JSON with `frames` or `layouts`, or a problem (400, 422)
    /// with diagnostics.
    static func checkJSONAnswer(_ answer: Answer) -> String? {
        guard let json = try? JSONParser(maximumDepth: 16).parse(answer.body) else {
            return "the \(answer.status) answer is not JSON"
        }
        switch answer.status {
        case 200:
            if answer.contentType != "application/json" { return "200 as \(answer.contentType)" }
            if json["frames"] == nil && json["layouts"] == nil { return "200 without frames or layouts" }
        case 400, 422:
            if answer.contentType != "application/problem+json" { return "\(answer.status) as \(answer.contentType)" }
            guard let diagnostics = json["diagnostics"]?.arrayValue, !diagnostics.isEmpty else {
                return "\(answer.status) without diagnostics"
            }
        default:
            return "status \(answer.status)"
        }
        return nil
    }

    /// The invariants of the SVG wireframe, for any input:
    /// - determinism as in ``checkScene(_:)`` (three engines' answers are the same bytes);
    /// - a 200 is `image/svg+xml` and well-formed (``checkSVG(_:)``), with one `g` carrying
    ///   `data-view` per view of each laid-out panel (one for a rejected panel), and each
    ///   `data-view` value, unescaped, is a view's name; anything else is a JSON answer
    ///   as ``checkJSONAnswer(_:)`` requires.
    static func checkWireframe(_ body: [UInt8]) -> String? {
        let plain = SceneEngine(limits: limits)
        let cached = SceneEngine(limits: limits, structureCacheEntries: 8, structureCacheBytes: 64 << 20)
        let (first, prepared) = answer(body, engine: plain, svg: true)
        let (second, _) = answer(body, engine: cached, svg: true)
        let (third, _) = answer(body, engine: cached, svg: true)
        if first != second { return "the structure-cached engine drew differently (\(first.status) vs \(second.status))" }
        if first != third { return "a repeated body drew differently from the structure cache (\(first.status) vs \(third.status))" }
        guard first.status == 200, let prepared else { return checkJSONAnswer(first) }
        if first.contentType != SceneEngine.svgContentType { return "200 as \(first.contentType)" }
        let document: SVGDocument
        switch parseSVG(first.body) {
        case .success(let parsed): document = parsed
        case .failure(let failure): return failure.reason
        }
        let (compiled, layouts) = plain.compileAndSolve(prepared)
        let expected = layouts.reduce(0) { $0 + ($1.isRejected ? 1 : compiled.hierarchy.count) }
        if document.viewNames.count != expected { return "\(document.viewNames.count) views drawn, \(expected) expected" }
        let names = Set(compiled.hierarchy.names)
        if let stray = document.viewNames.first(where: { !names.contains($0) }) { return "data-view '\(stray)' is no view" }
        return nil
    }

    /// What ``parseSVG(_:)`` reads from a wireframe: each `data-view` value, unescaped.
    struct SVGDocument {
        var viewNames: [String] = []
    }

    struct SVGFailure: Error {
        var reason: String
    }

    /// The elements a wireframe may hold (``WireframeRenderer``): any other one (`script`,
    /// `foreignObject`, …) could only come from client bytes breaking out of their escaping.
    static let svgElements: Set<String> = ["svg", "style", "g", "rect", "path", "text", "title"]

    /// Checks that `bytes` are a well-formed XML document as the wireframe writes it
    /// (XML 1.0 §2.1, §2.4, §3.1, §4.1): UTF-8 with the XML declaration first; one root
    /// `svg`; every start tag closed by its own end tag; attribute values in double quotes
    /// without `<`; no attribute twice in a tag, none an event handler (`on…`); `&` only in
    /// an entity or character reference (`amp lt gt quot apos`, `#N`, `#xH`); no character
    /// that XML 1.0 forbids; only the elements of ``svgElements``.
    /// - Complexity: O(bytes).
    static func parseSVG(_ bytes: [UInt8]) -> Result<SVGDocument, SVGFailure> {
        let declaration = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        guard bytes.starts(with: declaration) else { return .failure(SVGFailure(reason: "no XML declaration")) }
        guard let text = String(validating: bytes[declaration.count...], as: UTF8.self) else {
            return .failure(SVGFailure(reason: "not UTF-8"))
        }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var stack: [String] = []
        var roots = 0
        var document = SVGDocument()
        func fail(_ reason: String) -> Result<SVGDocument, SVGFailure> {
            .failure(SVGFailure(reason: "\(reason) at scalar \(index)"))
        }
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ":"
        }
        func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\n" || scalar == "\r" || (scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF)
        }
        func readName() -> String {
            var name = ""
            while index < scalars.count && isNameScalar(scalars[index]) {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            return name
        }
        /// Reads a reference after `&` (index on the `&`), returning what it stands for.
        func readReference() -> String? {
            var end = index + 1
            while end < scalars.count && end - index <= 10 && scalars[end] != ";" { end += 1 }
            guard end < scalars.count, scalars[end] == ";" else { return nil }
            var body = ""
            body.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
            index = end + 1
            switch body {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let value: UInt32?
                if body.hasPrefix("#x") { value = UInt32(body.dropFirst(2), radix: 16) } else if body.hasPrefix("#") { value = UInt32(body.dropFirst(), radix: 10) } else { value = nil }
                guard let value, let scalar = Unicode.Scalar(value), isAllowed(scalar) else { return nil }
                return String(Character(scalar))
            }
        }
        func skipSpace() {
            while index < scalars.count && (scalars[index] == " " || scalars[index] == "\n" || scalars[index] == "\t" || scalars[index] == "\r") { index += 1 }
        }

        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "&" {
                guard readReference() != nil else { return fail("a bare '&'") }
                continue
            }
            if !isAllowed(scalar) { return fail("a character XML forbids (U+\(String(scalar.value, radix: 16)))") }
            if scalar != "<" {
                if stack.isEmpty && !(scalar == "\n" || scalar == " ") { return fail("text outside the root") }
                index += 1
                continue
            }
            index += 1
            if index < scalars.count && scalars[index] == "/" {
                index += 1
                let name = readName()
                guard index < scalars.count, scalars[index] == ">" else { return fail("an unterminated end tag") }
                index += 1
                guard let open = stack.popLast(), open == name else { return fail("</\(name)> closes nothing open") }
                continue
            }
            let name = readName()
            guard svgElements.contains(name) else { return fail("element '\(name)'") }
            if stack.isEmpty {
                roots += 1
                if roots > 1 || name != "svg" { return fail("a second root or a root other than svg") }
            }
            var attributes = Set<String>()
            var isEmptyElement = false
            while true {
                skipSpace()
                guard index < scalars.count else { return fail("an unterminated tag") }
                if scalars[index] == ">" { index += 1; break }
                if scalars[index] == "/" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ">" else { return fail("a stray '/' in a tag") }
                    index += 2
                    isEmptyElement = true
                    break
                }
                let attribute = readName()
                if attribute.isEmpty { return fail("a tag with a character that starts no attribute") }
                if attribute.lowercased().hasPrefix("on") { return fail("event handler attribute '\(attribute)'") }
                if !attributes.insert(attribute).inserted { return fail("attribute '\(attribute)' twice") }
                guard index + 1 < scalars.count, scalars[index] == "=", scalars[index + 1] == "\"" else {
                    return fail("attribute '\(attribute)' without a double-quoted value")
                }
                index += 2
                var value = ""
                while index < scalars.count && scalars[index] != "\"" {
                    let character = scalars[index]
                    if character == "<" { return fail("'<' in the value of '\(attribute)'") }
                    if !isAllowed(character) { return fail("a character XML forbids in '\(attribute)'") }
                    if character == "&" {
                        guard let replacement = readReference() else { return fail("a bare '&' in '\(attribute)'") }
                        value += replacement
                    } else {
                        value.unicodeScalars.append(character)
                        index += 1
                    }
                }
                guard index < scalars.count else { return fail("an unterminated value of '\(attribute)'") }
                index += 1
                if attribute == "data-view" && name == "g" { document.viewNames.append(value) }
            }
            if !isEmptyElement { stack.append(name) }
        }
        if !stack.isEmpty { return fail("unclosed <\(stack.last ?? "")>") }
        if roots != 1 { return fail("no root element") }
        return .success(document)
    }
}
