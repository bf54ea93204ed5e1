import Testing
@testable import LayoutSyntax
