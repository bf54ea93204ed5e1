import InterfaceBuilder
import LayoutCompiler

/// What `POST /import` (and `layoutd import|lint`) is asked: the query parameters,
/// checked. Held by `ImportServiceTests`.
public struct ImportRequest: Sendable, Equatable {
    /// `?solve=true`: solve each hierarchy and report `frames`, `diagnostics`, `misplaced`.
    public var solves = false
    /// `?device=ID`: a device of ``IBDevice/ids``; `nil` for the document's own.
    public var deviceID: String?
    /// `?orientation=portrait|landscape` (with or without `device`: without it, the
    /// document's own device turned).
    public var orientation: String?
    /// `?format=svg`, or without `format` an `Accept` that ranks `image/svg+xml` above
    /// `application/json` (as on `/solve`): the hierarchies drawn instead of JSON.
    public var drawsWireframe = false
    /// `?intrinsic=measured`: labels measured from their text and mapped font.
    public var measuresLabels = false

    public init(solves: Bool = false, deviceID: String? = nil, orientation: String? = nil, drawsWireframe: Bool = false,
                measuresLabels: Bool = false) {
        self.solves = solves
        self.deviceID = deviceID
        self.orientation = orientation
        self.drawsWireframe = drawsWireframe
        self.measuresLabels = measuresLabels
    }

    /// Why a query cannot be answered: the parameter, the value given (percent-decoded), and
    /// what is allowed; or, when `count` is more than 1, that the parameter was repeated.
    public struct Refusal: Error, Sendable, Equatable {
        public var parameter: String
        public var value: String
        public var allowed: [String]
        /// How many times the parameter was given (a refusal for a repeat when above 1).
        public var count = 1

        public init(parameter: String, value: String, allowed: [String], count: Int = 1) {
            self.parameter = parameter
            self.value = value
            self.allowed = allowed
            self.count = count
        }
    }

    /// The values `solve` takes (openapi.yaml's enum; `''` is a bare `solve` or `solve=`).
    public static let solveValues = ["true", "false", "1", "0", "''"]

    /// The request a query string asks for: `solve` (`true`, `false`, `1`, `0` or empty),
    /// `device` (an id of the table), `orientation` (`portrait`, `landscape`), `intrinsic`
    /// (`recorded` or `measured`), `format` (`json`, `svg`). Each value is read as `/solve`
    /// reads `scale` and `width` (``LayoutService/singleQueryValue(_:in:)``):
    /// percent-decoded (``QueryParameters``), case-sensitive, each parameter at most once.
    /// Other parameters are not read here: the route refuses them first
    /// (``LayoutService/queryProblem(_:route:)``). Without `format`, `accept` (the request's
    /// `Accept` field) chooses the drawing as on `/solve`
    /// (``LayoutService/prefersWireframe(accept:query:)``: `image/svg+xml` ranked strictly
    /// above `application/json`); JSON otherwise, never a 406.
    /// - Throws: ``Refusal`` naming the first parameter (in the order above) given twice or
    ///   whose value is not allowed.
    public static func parse(query: String?, accept: String? = nil) throws(Refusal) -> ImportRequest {
        func value(_ name: String) throws(Refusal) -> String? {
            switch LayoutService.singleQueryValue(name, in: query) {
            case .success(let value): return value
            case .failure(let repeated): throw Refusal(parameter: name, value: "", allowed: [], count: repeated.count)
            }
        }
        var request = ImportRequest()
        if let solve = try value("solve") {
            switch solve {
            case "true", "1", "": request.solves = true
            case "false", "0": request.solves = false
            default: throw Refusal(parameter: "solve", value: solve, allowed: solveValues)
            }
        }
        if let device = try value("device") {
            guard IBDevice.ids.contains(device) else { throw Refusal(parameter: "device", value: device, allowed: IBDevice.ids) }
            request.deviceID = device
        }
        if let orientation = try value("orientation") {
            guard orientation == "portrait" || orientation == "landscape" else {
                throw Refusal(parameter: "orientation", value: orientation, allowed: ["portrait", "landscape"])
            }
            request.orientation = orientation
        }
        if let intrinsic = try value("intrinsic") {
            guard intrinsic == "recorded" || intrinsic == "measured" else {
                throw Refusal(parameter: "intrinsic", value: intrinsic, allowed: ["recorded", "measured"])
            }
            request.measuresLabels = intrinsic == "measured"
        }
        if let format = try value("format") {
            // Compared case-insensitively, as `/solve` compares it.
            let lowered = format.lowercased()
            guard lowered == "json" || lowered == "svg" else { throw Refusal(parameter: "format", value: format, allowed: ["json", "svg"]) }
            request.drawsWireframe = lowered == "svg"
        } else {
            request.drawsWireframe = LayoutService.prefersWireframe(accept: accept, query: nil)
        }
        return request
    }
}

/// A view whose solved frame differs from the frame Interface Builder recorded by more
/// than half a pixel on some field: Xcode's "frame will be different at run time".
public struct MisplacedView: Sendable {
    public var view: String
    public var ibId: String
    public var recorded: Frame
    public var solved: Frame
}

/// One hierarchy solved (``ImportRequest/solves``).
public struct SolvedHierarchy: Sendable {
    /// Frames relative to the parent, as `/solve` answers them; empty when the scene does
    /// not compile or its layout is rejected.
    public var frames: [(name: String, frame: Frame)]
    public var diagnostics: [LayoutDiagnostic]
    public var misplaced: [MisplacedView]
    /// The compiled scene and its layout, for drawing; `nil` when it did not compile.
    var compiled: CompiledScene?
    var layout: Layout?
    /// The labels' text (``SceneText``) with `?intrinsic=measured`, for drawing their lines.
    var text: SceneText?
}

/// A document imported and, when asked, each hierarchy solved.
public struct ImportOutcome: Sendable {
    public var imported: IBImport
    /// One per hierarchy, in order, when solving was asked; empty otherwise.
    public var solved: [SolvedHierarchy]
}

extension SceneEngine {
    /// Imports an Interface Builder document and, when `request` asks, solves each of its
    /// hierarchies with this engine's compiler and solver (the path of `/solve`).
    ///
    /// The solver work of the whole document is bounded by `limits.maxSolverWork`, shared
    /// evenly by its hierarchies (a hierarchy past its share gets the `limit_exceeded`
    /// diagnostic of `/solve`). `misplaced` compares with the recorded frames to half a
    /// pixel of the layout's device (`0.5 / scale` points; 0.5 without a device), leaves out
    /// the views the solver finds ambiguous (``IBMisplacement/misplacedViews(in:solvedFrames:tolerance:skipping:)``), and is
    /// empty when the document is laid out on another device than its own (its recorded
    /// frames are not that device's).
    ///
    /// Each fault of the document (``IBImport/problems``: an id given twice, a constraint
    /// naming no element) is a note of the hierarchy it concerns, and also a warning of its
    /// `diagnostics` when solved.
    ///
    /// A hierarchy whose scene `/solve` would refuse for a limit (its JSON longer than
    /// `maxBodyBytes`, more views or constraints than `limits` allow, …) is imported all
    /// the same, with a note per limit naming it and its `serve` flag
    /// (``solveLimitNotes(_:limits:maxBodyBytes:)``).
    ///
    /// - Parameter maxBodyBytes: the bytes of a `/solve` body, the server's
    ///   `--max-body-bytes` (default 1 MiB, its default).
    /// - Throws: ``EngineFailure`` 422 with one `invalid_document` diagnostic naming the
    ///   line (``IBImportError``), or one `limit_exceeded` when the importer's own solve
    ///   (each hierarchy's free sizes, ``IBImportOptions/maxSolverWork``) passes
    ///   `limits.maxSolverWork`.
    /// - Complexity: the import is O(elements + constraints × log views); each solve is
    ///   bounded by its share of the work limit.
    public func importDocument(_ bytes: [UInt8], request: ImportRequest,
                               maxBodyBytes: Int = 1 << 20) throws(EngineFailure) -> ImportOutcome {
        var options = IBImportOptions()
        options.measuresLabels = request.measuresLabels
        options.maxSolverWork = limits.maxSolverWork
        options.maxHierarchyDepth = limits.maxHierarchyDepth
        if request.deviceID != nil || request.orientation != nil {
            let recorded = Self.recordedDevice(bytes, limits: options.limits)
            let id = request.deviceID ?? recorded?.id
            if let id {
                options.device = IBDevice.named(id, orientation: request.orientation ?? (request.deviceID == nil ? recorded?.orientation : nil) ?? "portrait")
            }
        }
        var imported: IBImport
        do {
            imported = try InterfaceBuilderImporter.importDocument(bytes, options: options)
        } catch {
            throw EngineFailure.invalidDocument(error)
        }
        // The document's faults are noted in the hierarchy they concern, solved or not (a
        // solved one has them as warnings too): ImportServiceTests.duplicateIdsAreNoted.
        let problems = Self.documentProblems(imported)
        for index in imported.hierarchies.indices {
            imported.hierarchies[index].notes += problems[index].map(\.message)
            imported.hierarchies[index].notes += Self.solveLimitNotes(imported.hierarchies[index].scene, limits: limits,
                                                                      maxBodyBytes: maxBodyBytes)
        }
        guard request.solves || request.drawsWireframe else { return ImportOutcome(imported: imported, solved: []) }
        var limits = self.limits
        limits.maxSolverWork = max(1, self.limits.maxSolverWork / max(1, imported.hierarchies.count))
        let engine = SceneEngine(limits: limits, maxResponseBytes: maxResponseBytes, answerPool: answerPool)
        let retargeted = imported.document.isRetargeted
        let tolerance = 0.5 / Double(imported.document.device?.scale ?? 1)
        var solved: [SolvedHierarchy] = []
        for hierarchy in imported.hierarchies {
            var writer = JSONWriter(reservingCapacity: 4096)
            writer.value(hierarchy.scene)
            switch engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }) {
            case .failure(let failure):
                solved.append(SolvedHierarchy(frames: [], diagnostics: problems[solved.count] + failure.diagnostics, misplaced: []))
            case .success(let prepared):
                let (compiled, layouts) = engine.compileAndSolve(prepared)
                var diagnostics = problems[solved.count] + compiled.diagnostics + (prepared.text?.diagnostics ?? [])
                guard !compiled.hasErrors, let layout = layouts.first else {
                    solved.append(SolvedHierarchy(frames: [], diagnostics: diagnostics, misplaced: []))
                    continue
                }
                diagnostics += layout.diagnostics
                let frames = layout.isRejected ? [] : layout.frames
                var misplaced: [MisplacedView] = []
                if !retargeted && !frames.isEmpty {
                    // Views the solver finds ambiguous are left out: its choice says nothing
                    // about the document (IBMisplacement's rule).
                    let ambiguous = Set(layout.diagnostics.filter { $0.code == .ambiguousLayout }.compactMap(\.view))
                    misplaced = IBMisplacement.misplacedViews(in: hierarchy, solvedFrames: frames, tolerance: tolerance, skipping: ambiguous)
                        .filter { $0.view != "superview" }
                        .map { MisplacedView(view: $0.view, ibId: $0.ibId, recorded: $0.recorded, solved: $0.solved) }
                }
                solved.append(SolvedHierarchy(frames: frames, diagnostics: diagnostics, misplaced: misplaced,
                                              compiled: compiled, layout: layout, text: prepared.text))
            }
        }
        return ImportOutcome(imported: imported, solved: solved)
    }

    /// The `serve` flag of each scene limit that has one (the others are fixed), in a fixed
    /// order (a list, not a dictionary: no hash order decides which is found).
    static let sceneLimitFlags: [(limit: String, flag: String)] = [
        ("maxViews", "--max-views"), ("maxConstraints", "--max-constraints"), ("maxSizes", "--max-sizes"),
        ("maxConstraintBytes", "--max-constraint-bytes"), ("maxHierarchyDepth", "--max-hierarchy-depth"),
        ("maxJSONDepth", "--max-json-depth"),
    ]

    /// What `POST /solve` would refuse in `scene` for a limit, one note each, in the
    /// decoder's order: its JSON over `maxBodyBytes` (`/solve` answers 413), nested deeper
    /// than `limits.maxJSONDepth` (400), or a decoder's `limit_exceeded` (422: views,
    /// guides, constraints, one constraint's bytes, hierarchy depth), each with the limit
    /// and the flag that raises it, or any other error the decoder finds (a scene the
    /// importer should never write, noted all the same). Empty when `/solve` reads the scene. The limits the
    /// compiler checks (priority levels, constraint bytes with groups) and the solver work
    /// show in a solved hierarchy's `diagnostics` instead. Held by
    /// `ImportServiceTests.scenesBeyondSolveLimitsSayWhich`.
    /// - Complexity: O(scene): it is written once (for its length) and decoded once, from
    ///   the value itself.
    public static func solveLimitNotes(_ scene: JSONValue, limits: SceneLimits, maxBodyBytes: Int) -> [String] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.value(scene)
        var notes: [String] = []
        if writer.bytes.count > maxBodyBytes {
            notes.append("/solve would refuse this scene (413): it is \(writer.bytes.count) bytes as JSON, "
                         + "more than the \(maxBodyBytes) a request body may have (limit maxBodyBytes, --max-body-bytes)")
        }
        guard !Self.nestsDeeper(scene, than: limits.maxJSONDepth) else {
            notes.append("/solve would refuse this scene (400): its JSON is nested more than \(limits.maxJSONDepth) levels deep "
                         + "(limit maxJSONDepth, --max-json-depth)")
            return notes
        }
        do {
            _ = try SceneDecoder(limits: limits).decode(scene)
        } catch {
            for diagnostic in error.diagnostics where diagnostic.isError {
                let flag = diagnostic.code == .limitExceeded
                    ? Self.sceneLimitFlags.first { diagnostic.message.hasSuffix("(limit \($0.limit))") }?.flag : nil
                notes.append("/solve would refuse this scene (\(error.reason == .malformed ? 400 : 422) \(diagnostic.code.rawValue)): \(diagnostic.message)"
                             + (flag.map { ": raise it with \($0)" } ?? ""))
            }
        }
        return notes
    }

    /// Whether `value` nests arrays and objects more than `maximumDepth` levels deep, counted
    /// as ``JSONParser`` counts them (the outermost container is level 1), so a scene this
    /// refuses is one `/solve`'s parser refuses for depth. It descends at most
    /// `maximumDepth + 1` levels. Held by `ImportServiceTests.scenesBeyondSolveLimitsSayWhich`.
    static func nestsDeeper(_ value: JSONValue, than maximumDepth: Int, level: Int = 0) -> Bool {
        switch value {
        case .array(let elements):
            guard level < maximumDepth else { return true }
            return elements.contains { nestsDeeper($0, than: maximumDepth, level: level + 1) }
        case .object(let members):
            guard level < maximumDepth else { return true }
            return members.contains { nestsDeeper($0.1, than: maximumDepth, level: level + 1) }
        default:
            return false
        }
    }

    /// The document's problems (``IBImport/problems``) as `invalid_document` warnings with
    /// their line, per hierarchy (the one whose `ids` hold the view concerned), in order.
    static func documentProblems(_ imported: IBImport) -> [[LayoutDiagnostic]] {
        imported.hierarchies.map { hierarchy in
            let viewIDs = Set(hierarchy.ids.map(\.ibId))
            return imported.problems.filter { viewIDs.contains($0.viewID) }.map { problem in
                var diagnostic = LayoutDiagnostic(severity: .warning, code: .invalidDocument, message: "Line \(problem.line): \(problem.message)")
                diagnostic.line = problem.line
                return diagnostic
            }
        }
    }

    /// The views not imported for want of a recorded frame (``IBImport/skippedRoots``) as
    /// `invalid_document` warnings with their line, for the answer's top-level
    /// `diagnostics`: they belong to no hierarchy.
    static func skippedRootWarnings(_ imported: IBImport) -> [LayoutDiagnostic] {
        imported.skippedRoots.map { skipped in
            var diagnostic = LayoutDiagnostic(severity: .warning, code: .invalidDocument, message: "Line \(skipped.line): \(skipped.message)")
            diagnostic.line = skipped.line
            return diagnostic
        }
    }

    /// The `<device>` a document records, read with the importer's bounds (nil when the
    /// document has none or does not import; the import then says why).
    static func recordedDevice(_ bytes: [UInt8], limits: XMLLimits) -> IBDevice? {
        var options = IBImportOptions()
        options.limits = limits
        return (try? InterfaceBuilderImporter.importDocument(bytes, options: options))?.document.device
    }

    /// The JSON answer of `POST /import` (contract, "Interface Builder documents"):
    /// `document`, `hierarchies` (each `name`, `ibId`, `kind`, `scene`, `ids`, `notes`,
    /// and when solved `frames`, `diagnostics`, `misplaced`) and `diagnostics` (a warning
    /// for each view not imported for want of a recorded frame, ``skippedRootWarnings(_:)``),
    /// bounded by ``maxResponseBytes`` like every answer.
    public func importAnswer(_ outcome: ImportOutcome) -> EngineAnswer {
        let imported = outcome.imported
        let documentJSON = imported.answer["document"] ?? .object([])
        var writer = answerWriter(reservingCapacity: 16_384)
        writer.beginObject()
        writer.key("document")
        writer.value(documentJSON)
        writer.key("hierarchies")
        writer.beginArray()
        for (index, hierarchy) in imported.hierarchies.enumerated() {
            if writer.stop != nil { break }
            writer.beginObject()
            writer.key("name"); writer.string(hierarchy.name)
            writer.key("ibId"); writer.string(hierarchy.ibId)
            writer.key("kind"); writer.string(hierarchy.kind)
            writer.key("scene"); writer.value(hierarchy.scene)
            writer.key("ids")
            writer.beginObject()
            for (name, ibId) in hierarchy.ids { writer.key(name); writer.string(ibId) }
            writer.endObject()
            writer.key("notes")
            writer.beginArray()
            for note in hierarchy.notes { writer.string(note) }
            writer.endArray()
            if index < outcome.solved.count {
                let solved = outcome.solved[index]
                writer.key("frames")
                writer.beginObject()
                for (name, frame) in solved.frames {
                    writer.key(name)
                    Self.writeFrame(frame, into: &writer)
                }
                writer.endObject()
                writer.key("diagnostics")
                writer.diagnostics(solved.diagnostics)
                writer.key("misplaced")
                writer.beginArray()
                for view in solved.misplaced {
                    writer.beginObject()
                    writer.key(plain: "view"); writer.string(view.view)
                    writer.key(plain: "ibId"); writer.string(view.ibId)
                    writer.key(plain: "recorded"); Self.writeFrame(view.recorded, into: &writer)
                    writer.key(plain: "solved"); Self.writeFrame(view.solved, into: &writer)
                    writer.endObject()
                }
                writer.endArray()
                // Labels measured (`intrinsic=measured`): their lines and truncation, as
                // `/solve` answers them (ImportHandlerTests.measuredLabelsAnswerTheirText).
                if solved.text != nil, let layout = solved.layout, !layout.isRejected {
                    writer.key("text")
                    writer.textResults(layout.text)
                }
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("diagnostics")
        writer.diagnostics(Self.skippedRootWarnings(imported))
        writer.endObject()
        return answer(&writer, status: .ok, contentType: "application/json", isCacheable: false)
    }

    static func writeFrame(_ frame: Frame, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "x"); writer.number(frame.x)
        writer.key(plain: "y"); writer.number(frame.y)
        writer.key(plain: "width"); writer.number(frame.width)
        writer.key(plain: "height"); writer.number(frame.height)
        writer.endObject()
    }
}

extension EngineFailure {
    /// A document that cannot be imported: 422 `invalid_document` with its message and line,
    /// or `limit_exceeded` when importing it took more than `--max-solver-work`.
    static func invalidDocument(_ error: IBImportError) -> EngineFailure {
        if error.isLimit {
            var failure = EngineFailure(status: .unprocessableContent, diagnostics: [LayoutDiagnostic(code: .limitExceeded, message: error.message)])
            failure.subject = .document
            return failure
        }
        let at = error.line > 0 ? "Line \(error.line): " : ""
        var diagnostic = LayoutDiagnostic(code: .invalidDocument, message: at + error.message)
        if error.line > 0 { diagnostic.line = error.line }
        var failure = EngineFailure(status: .unprocessableContent, diagnostics: [diagnostic])
        failure.subject = .document
        return failure
    }
}
