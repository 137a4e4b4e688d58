import Mailbox

/// A unified diff of two texts, line by line (longest common subsequence; the texts are
/// small pretty-printed JSON documents).
func unifiedDiff(
    expected: String, actual: String, expectedLabel: String, actualLabel: String, context: Int = 3
)
    -> String
{
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // LCS table, bounded: corpus files are a few hundred lines at most.
    let n = a.count
    let m = b.count
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    enum Edit {
        case same(String)
        case removed(String)
        case added(String)
    }
    var edits: [Edit] = []
    var i = 0
    var j = 0
    while i < n || j < m {
        if i < n, j < m, a[i] == b[j] {
            edits.append(.same(a[i]))
            i += 1
            j += 1
        } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
            // A changed line shows the expected line first, then the actual one, as diff(1)
            // and git print them.
            edits.append(.removed(a[i]))
            i += 1
        } else {
            edits.append(.added(b[j]))
            j += 1
        }
    }
    // Group into hunks with `context` unchanged lines around each change.
    // The labels are file names: on their lines, escaped (a tab would look like a field end).
    var output = ["--- \(TerminalText.oneLine(expectedLabel))", "+++ \(TerminalText.oneLine(actualLabel))"]
    var index = 0
    var oldLine = 1
    var newLine = 1
    var positions: [(old: Int, new: Int)] = []
    for edit in edits {
        positions.append((oldLine, newLine))
        switch edit {
        case .same:
            oldLine += 1
            newLine += 1
        case .removed: oldLine += 1
        case .added: newLine += 1
        }
    }
    while index < edits.count {
        guard
            let changeStart = edits[index...].firstIndex(where: { if case .same = $0 { false } else { true } }
            )
        else { break }
        let start = max(index, changeStart - context)
        var end = changeStart
        var unchangedRun = 0
        var cursor = changeStart
        while cursor < edits.count {
            if case .same = edits[cursor] {
                unchangedRun += 1
                if unchangedRun > context * 2 { break }
            } else {
                unchangedRun = 0
                end = cursor
            }
            cursor += 1
        }
        let stop = min(edits.count, end + context + 1)
        var oldCount = 0
        var newCount = 0
        var body: [String] = []
        for edit in edits[start..<stop] {
            switch edit {
            case .same(let line):
                body.append(" " + line)
                oldCount += 1
                newCount += 1
            case .removed(let line):
                body.append("-" + line)
                oldCount += 1
            case .added(let line):
                body.append("+" + line)
                newCount += 1
            }
        }
        output.append("@@ -\(positions[start].old),\(oldCount) +\(positions[start].new),\(newCount) @@")
        output += body
        index = stop
    }
    return output.joined(separator: "\n")
}
