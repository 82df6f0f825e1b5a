# mk/sass_rounds.awk - dependent load rounds per loop trip of a kernel's
# SASS (cuobjdump -sass, encoding words stripped: configs/measured/h100/
# sass/README.md).  For each file: the innermost loop (a backward BRA)
# that holds a global or texture load is replayed in order for 3 trips by
# one warp that issues an instruction a cycle and waits for a source
# register until the instruction that wrote it is done: a load after L
# (400) cycles, anything else after 4.  Rounds = (cycles per trip -
# instructions per trip) / L: how many memory latencies a trip exposes
# when nothing else hides them (1: all loads issued before the first use).
# Prints "file<TAB>instructions<TAB>loads<TAB>rounds" per file.
#     awk -f mk/sass_rounds.awk FILE.sass...
function flush_file(   i, j, s, e, best, span, t, trip, st, r, n, nd, k, srcs, ns, w) {
    if (ni == 0) return
    best = -1
    for (i = 0; i < nb; i++) {                   # innermost loop with a load
        s = bto[i]; e = bfrom[i]; span = e - s
        t = 0
        for (j = 0; j < ni; j++) if (addr[j] >= s && addr[j] <= e && isld[j]) t++
        if (t && (best < 0 || span < bspan)) { best = i; bspan = span; bs = s; be = e; bl = t }
    }
    if (best < 0) { ni = nb = 0; return }
    delete ready
    cyc = 0; n = 0
    for (trip = 0; trip < 3; trip++)
        for (j = 0; j < ni; j++) {
            if (addr[j] < bs || addr[j] > be) continue
            if (trip == 0) n++
            ns = split(src[j], srcs, " ")
            st = cyc
            for (k = 1; k <= ns; k++) if ((srcs[k] in ready) && ready[srcs[k]] > st) st = ready[srcs[k]]
            cyc = st + 1
            if (dst[j] != "") for (k = 0; k < dw[j]; k++) ready[dst[j] + k] = cyc + (isld[j] ? L : 4)
        }
    printf "%s\t%d\t%d\t%.2f\n", fname, n, bl, (cyc / 3 - n) / L
    ni = nb = 0
}
function hex(h,   i, v) {                         # "0x1f0" or "1f0" -> 496
    sub(/^0x/, "", h); v = 0
    for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
    return v
}
BEGIN { L = 400; ni = nb = 0 }
FNR == 1 { flush_file(); fname = FILENAME; sub(/.*\//, "", fname) }
/^[ \t]*\/\*[0-9a-f]+\*\// {
    line = $0
    match(line, /\/\*[0-9a-f]+\*\//)
    a = hex(substr(line, RSTART + 2, RLENGTH - 4))
    body = substr(line, RSTART + RLENGTH); sub(/;.*/, "", body)
    gsub(/^[ \t]+/, "", body)
    sub(/^@!?U?P[A-Z0-9]+[ \t]+/, "", body)      # the guard predicate
    op = body; sub(/[ \t].*/, "", op)
    rest = body; sub(/^[^ \t]+[ \t]*/, "", rest)
    if (op ~ /^BRA/ && match(rest, /0x[0-9a-f]+/)) {
        tgt = hex(substr(rest, RSTART, RLENGTH))
        if (tgt < a) { bto[nb] = tgt; bfrom[nb] = a; nb++ }
    }
    addr[ni] = a
    isld[ni] = op ~ /^(LDG|TLD|TEX|TLD4|SULD)/
    nr = split(rest, ops, ",")
    dst[ni] = ""; dw[ni] = 1; s = ""
    for (k = 1; k <= nr; k++) {
        o = ops[k]; gsub(/^[ \t]+|[ \t]+$/, "", o)
        while (match(o, /R[0-9]+/)) {
            reg = substr(o, RSTART + 1, RLENGTH - 1) + 0
            if (k == 1 && dst[ni] == "" && o ~ /^R[0-9]+$/ && op !~ /^(ST|BRA|ISETP|FSETP|HSETP)/)
                dst[ni] = reg
            else s = s " " reg
            o = substr(o, RSTART + RLENGTH)
        }
    }
    if (isld[ni]) dw[ni] = op ~ /^LDG/ ? (op ~ /\.128/ ? 4 : op ~ /\.64/ ? 2 : 1) : 4
    src[ni] = s
    ni++
}
END { flush_file() }
