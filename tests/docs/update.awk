# tests/docs/update.awk - write a block's actual output into its Markdown
# file (tests/docs/examples.sh --update).  Run as
#   awk -v first=FENCE-LINE -v last=END-LINE -v outf=N.out -v rawf=N.raw \
#       -f update.awk FILE.md > NEW.md
# Lines first+1 .. last-1 (the block's inside) become the commands as
# written (N.raw) each followed by its actual output (N.out).
BEGIN {
    while ((getline l < rawf) > 0) {
        if (l ~ /^@@cmd [0-9]+@@$/) { k = l; continue }
        rawtext[k] = rawtext[k] l "\n"
    }
}
NR == first {
    print
    while ((getline l < outf) > 0) {
        if (l in rawtext) printf "%s", rawtext[l]
        else print l
    }
    next
}
NR > first && NR < last { next }
{ print }
