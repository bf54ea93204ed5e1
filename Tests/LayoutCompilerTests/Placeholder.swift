import Testing
@testable import LayoutCompiler
