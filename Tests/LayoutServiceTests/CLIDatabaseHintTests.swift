import LayoutCompiler
import Testing
@testable import LayoutService

/// `layoutd solve` and `validate` without `--db`: a scene naming a group or a font family
/// that only a database could hold gets one line on standard error saying so.
struct CLIDatabaseHintTests {
    static let family = LayoutDiagnostic(code: .unknownFont, message: "Unknown font family 'Roboto'")
    static let group = LayoutDiagnostic(code: .unknownGroup, message: "No group named 'base' is stored (included as 'base')")

    @Test func anUnknownFamilyNamesTheFlag() {
        #expect(LayoutdCommand.missingDatabaseHint([Self.family])
                == "no --db was given, so no stored font families are read: pass --db PATH|URL, the database `layoutd serve --db` stores them in")
    }

    @Test func anUnknownGroupAndFamilyAreNamedTogether() {
        #expect(LayoutdCommand.missingDatabaseHint([Self.group])
                == "no --db was given, so no stored groups are read: pass --db PATH|URL, the database `layoutd serve --db` stores them in")
        #expect(LayoutdCommand.missingDatabaseHint([Self.family, Self.group])
                == "no --db was given, so no stored groups and font families are read: pass --db PATH|URL, the database `layoutd serve --db` stores them in")
    }

    @Test func otherErrorsGetNoHint() {
        let missingFiles = LayoutDiagnostic(code: .unknownFont, message: "Font family 'Inter' is built in but its files are not installed on this server")
        #expect(LayoutdCommand.missingDatabaseHint([missingFiles]) == nil)
        #expect(LayoutdCommand.missingDatabaseHint([LayoutDiagnostic(code: .unknownView, message: "Unknown view 'b'")]) == nil)
        #expect(LayoutdCommand.missingDatabaseHint([]) == nil)
    }
}
