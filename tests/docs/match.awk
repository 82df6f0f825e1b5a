# tests/docs/match.awk - does the actual output match the expected one?
#   awk -f match.awk EXPECTED ACTUAL   (exit 0: match, 1: no match)
# Lines compare after trailing blanks are removed; trailing empty lines are
# ignored.  An expected line "..." alone matches any number of actual lines
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
END {
    while (ne > 0 && e[ne] == "") ne--
    while (na > 0 && a[na] == "") na--
    exit m(1, 1) ? 0 : 1
}
