# tests/docs/match.awk - does the actual output match the expected one?
#   awk -f match.awk EXPECTED ACTUAL   (exit 0: match, 1: no match)
# Lines compare after trailing blanks are removed; empty lines at the end
# of each command's output (before the next "@@cmd K@@" line, or the end)
# are ignored.  An expected line "..." alone matches any number of actual lines
# (for output the documentation shortens).
function m(i, j,   k) {
    if (i > ne) return j > na
    if (e[i] == "...") {
        for (k = j; k <= na + 1; k++) if (m(i + 1, k)) return 1
        return 0
    }
    if (j > na || e[i] != a[j]) return 0
    return m(i + 1, j + 1)
}
FNR == 1 { file++ }
{ sub(/[ \t]+$/, "") }
file == 1 { e[++ne] = $0 }
file == 2 { a[++na] = $0 }
# Drop the empty lines that end a command's output from x[1..n]; the count.
function trim(x, n,   i, j, k, keep) {
    k = 0
    for (i = 1; i <= n; i++) {
        keep = x[i] != ""
        if (!keep) {   # keep an empty line followed by a non-empty line that is not a marker
            for (j = i + 1; j <= n && x[j] == ""; j++) ;
            keep = j <= n && x[j] !~ /^@@cmd [0-9]+@@$/
        }
        if (keep) x[++k] = x[i]
    }
    return k
}
END {
    ne = trim(e, ne)
    na = trim(a, na)
    exit m(1, 1) ? 0 : 1
}
