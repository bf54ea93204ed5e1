// layoutd: the service and its offline commands. Everything lives in LayoutService.
import Foundation
import LayoutService

exit(LayoutdCommand.main(Array(CommandLine.arguments.dropFirst())))
