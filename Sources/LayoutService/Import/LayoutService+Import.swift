import HTTP1
import LayoutCompiler

extension LayoutService {
    /// The media types `POST /import` reads (contract, "Interface Builder documents").
    static let importMediaTypes = ["application/xml", "text/xml", "application/octet-stream"]

    /// `POST /import`: an Interface Builder document in, its hierarchies as scenes out
    /// (``SceneEngine/importDocument(_:request:)``), solved with `?solve=true`, drawn with
    /// `?format=svg` or `Accept: image/svg+xml` (as `/solve` negotiates; its 200 answers,
    /// JSON or SVG, carry `Vary: Accept`). Runs in a solving turn, as `/solve` does. The body is bounded by
    /// `--max-body-bytes` (413 beyond) and the XML by ``XMLLimits`` (422). Answers are not
    /// cached.
    func importDocument(_ request: HTTPRequest) -> HTTPResponse {
        takingSolveTurn(for: request) { _ in importInTurn(request) }
    }

    private func importInTurn(_ request: HTTPRequest) -> HTTPResponse {
        let importRequest: ImportRequest
        do {
            importRequest = try ImportRequest.parse(query: request.query, accept: request.headers["Accept"])
        } catch {
            if error.count > 1 { return problem(.repeatedQueryParameter(error.parameter, count: error.count)) }
            return problem(.invalidImportParameter(error))
        }
        if let unsupported = checkDocumentType(request) { return unsupported }
        let outcome: ImportOutcome
        do {
            outcome = try engine.importDocument(request.body, request: importRequest, maxBodyBytes: configuration.maxBodyBytes)
        } catch {
            return response(for: error)
        }
        if importRequest.drawsWireframe {
            var response = answer(engine.importWireframe(outcome), cacheStatus: nil)
            // The policy of `/solve?format=svg` (``solveWireframe(_:turn:)``): the drawing may
            // be opened as a document of its own.
            if response.headers["Content-Type"]?.hasPrefix("image/svg+xml") == true {
                response.headers.append("Content-Security-Policy", PlaygroundPage.wireframePolicy)
            }
            response.headers.append("Vary", "Accept")
            return response
        }
        var response = answer(engine.importAnswer(outcome), cacheStatus: nil)
        response.headers.append("Vary", "Accept")
        return response
    }

    /// 415 unless the body is declared as one of ``importMediaTypes`` (parameters such as
    /// `charset` allowed), as curl's default `application/x-www-form-urlencoded`
    /// (`curl --data-binary @file.xib` sends it; read as the document all the same, as
    /// `/solve` reads it as JSON), or not declared; 415 for a content-coded body as on
    /// `/solve`.
    func checkDocumentType(_ request: HTTPRequest) -> HTTPResponse? {
        if let coding = request.headers["Content-Encoding"],
           coding.trimmingCharacters(in: .whitespaces).lowercased() != "identity" {
            return problem(.contentCoded(coding: coding))
        }
        guard let contentType = request.headers["Content-Type"],
              !contentType.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if Self.importMediaTypes.contains(mediaType) || mediaType == "application/x-www-form-urlencoded" {
            return nil
        }
        return problem(.unsupportedDocumentType(contentType: contentType))
    }
}
