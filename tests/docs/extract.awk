# tests/docs/extract.awk - split the shell examples of a Markdown file into
# blocks for tests/docs/examples.sh.  Run as
#   awk -v out=DIR -v src=FILE -f extract.awk FILE
# A block is a fenced code block holding at least one `$ mgsim` or
# `$ mgprobe` command line.  In a block, a line "$ CMD" starts a command
# (continued while a line ends in "\"); every other line is expected output.
# The HTML comment on the line before the fence, if any, is the block's
# marker: <!-- example: skip REASON -->, <!-- example: head N -->.
# Writes, for N = 1, 2, ...: OUT/N.sh (the commands, each after a line
# that echoes "@@cmd K@@"), OUT/N.exp (the expected output, with "@@cmd K@@"
# where command K was), OUT/N.raw (each command's lines as written, after
# its "@@cmd K@@" line) and OUT/N.meta ("FILE:FENCE-LINE END-LINE MARKER").
function flush(   f) {
    if (ncmd == 0 || !has_mg) return
    nblk++
    f = out "/" nblk
    printf "%s", cmds > (f ".sh"); close(f ".sh")
    printf "%s", want > (f ".exp"); close(f ".exp")
    printf "%s", raw > (f ".raw"); close(f ".raw")
    printf "%s:%d %d %s\n", src, start, NR, marker > (f ".meta"); close(f ".meta")
}
BEGIN { nblk = 0; infence = 0; marker = "" }
{
    line = $0
    if (!infence && line ~ /^<!-- example: .* -->$/) {
        pending = line
        sub(/^<!-- example: /, "", pending); sub(/ -->$/, "", pending)
        next
    }
    if (line ~ /^```/) {
        if (!infence) {
            infence = 1; start = NR; cmds = ""; want = ""; raw = ""; ncmd = 0; has_mg = 0; cont = 0
            marker = pending
        } else {
            infence = 0; flush(); marker = ""
        }
        pending = ""
        next
    }
    if (!infence) { if (line !~ /^[ \t]*$/) pending = ""; next }
    if (cont) {
        cmds = cmds line "\n"; raw = raw line "\n"
        cont = (line ~ /\\$/)
        next
    }
    if (line ~ /^\$ /) {
        c = substr(line, 3)
        if (c ~ /^(mgsim|mgprobe)( |$)/ || c ~ /^[A-Z_]+=[^ ]* (mgsim|mgprobe) /) has_mg = 1
        ncmd++
        cmds = cmds "echo '@@cmd " ncmd "@@'\n" c "\n"
        want = want "@@cmd " ncmd "@@\n"
        raw = raw "@@cmd " ncmd "@@\n" line "\n"
        cont = (line ~ /\\$/)
        next
    }
    want = want line "\n"
}
