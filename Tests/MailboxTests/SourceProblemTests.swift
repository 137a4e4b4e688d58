import Testing

@testable import Mailbox

/// What a skipped entry reports: a byte offset only where bytes were read, and folders that
/// could not be listed told apart from messages.
@Suite struct SourceProblemTests {
    @Test func aMessageProblemHasItsByteOffset() {
        let problem = SourceProblem(
            origin: MessageOrigin(path: "box.mbox", byteOffset: 5_120, index: 3, isInMultiMessageFile: true),
            reason: "empty message")
        #expect(problem.byteOffset == 5_120)
        #expect(!problem.isFileProblem && !problem.isFolderProblem)
        #expect(problem.description == "box.mbox#3 at byte 5120: empty message")
    }

    @Test func aFolderThatCannotBeListedIsAFileProblemWithoutOffset() {
        let problem = SourceProblem(
            origin: MessageOrigin(path: "Mail/.Archive"), reason: "cannot list directory: permission denied",
            isFolderProblem: true)
        #expect(problem.isFolderProblem && problem.isFileProblem)
        #expect(problem.byteOffset == nil)
        #expect(problem.description == "Mail/.Archive: cannot list directory: permission denied")
    }
}
