d=$(mktemp -d) && $MGSIM gen -o "$d/k" eltwise H=65536 W=65536 C=65536; rc=$?; ls "$d"; rm -rf "$d"; exit $rc
