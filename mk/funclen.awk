# mk/funclen.awk FILES - print "LINES FILE:LINE NAME" for every function
# definition of the project's style: the signature ends the line before a
# '{' alone in column 0, the body ends at a '}' in column 0.  LINES counts
# the body from '{' to '}'.  tests/layout.sh fails on one over 120 lines.
FNR == 1 { start = 0; sig = "" }
/^\{$/ {
    start = FNR
    s = sig
    sub(/.*[;}\/]/, "", s)                     # from the end of what came before
    name = "?"
    if (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
        name = substr(s, RSTART, RLENGTH)
        sub(/[ \t]*\($/, "", name)
    }
}
/^\}/ && start { print FNR - start + 1, FILENAME ":" start, name; start = 0 }
{ sig = start ? "" : sig " " $0 }
