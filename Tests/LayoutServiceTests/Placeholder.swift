import Testing
@testable import LayoutService
