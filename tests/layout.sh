#!/bin/sh
# tests/layout.sh MGSIM - architecture rules the build must keep:
#  - mgsim never links OpenCL, and only probe/ includes OpenCL headers;
#  - every shipped device config passes `config check --strict`;
#  - the man pages carry the current version;
#  - no C source file grows past 1000 lines;
#  - no function is over 120 lines (mk/funclen.awk);
#  - every project #include names its header from the repository root
#    ("base/diag.h", "sim/model/model.h"), so the line tells where it lives.
set -u
MGSIM=$1
pass=0 fail=0
ok()  { pass=$((pass+1)); }
bad() { echo "layout: FAIL: $*"; fail=$((fail+1)); }
if command -v ldd >/dev/null 2>&1; then
    if ldd "$MGSIM" | grep -qi opencl; then bad "$MGSIM links OpenCL"; else ok; fi
fi
if grep -rlE '#include *[<"]CL/' base sim traces tests 2>/dev/null | grep -q .; then
    bad "OpenCL headers included outside probe/: $(grep -rlE '#include *[<"]CL/' base sim traces tests | tr '\n' ' ')"
else ok; fi
if "$MGSIM" config check --strict --quiet configs/devices/*.json; then ok; else bad "shipped configs do not pass --strict"; fi
ver=$(sed -n 's/.*MG_VERSION "\(.*\)".*/\1/p' sim/version.h)
for m in doc/mgsim.1 doc/mgprobe.1; do
    if grep -q "$ver" "$m"; then ok; else bad "$m does not carry version $ver (sim/version.h)"; fi
done
big=$(find base sim traces probe tests -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1000 {print $2}')
if [ -n "$big" ]; then bad "files over 1000 lines: $big"; else ok; fi
long=$(find base sim traces probe tests bench mk -name '*.c' -exec awk -f mk/funclen.awk {} + |
       awk '$1 > 120 {print $2 " " $3 " (" $1 " lines)"}')
if [ -n "$long" ]; then bad "functions over 120 lines: $long"; else ok; fi
noroot=$(find base sim traces probe tests bench mk -name '*.[ch]' -exec grep -HE '^#include "' {} + |
         sed 's/^\([^:]*\):#include "\([^"]*\)".*/\1 \2/' | while read -r f h; do [ -f "$h" ] || echo "$f:$h"; done)
if [ -n "$noroot" ]; then bad "includes not named from the repository root: $noroot"; else ok; fi
echo "layout: $pass passed, $fail failed"
[ $fail -eq 0 ]
