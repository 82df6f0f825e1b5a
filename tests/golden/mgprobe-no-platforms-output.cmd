d=$(mktemp -d); OCL_ICD_VENDORS=/nonexistent $MGPROBE devices -o $d/devices.json; echo "devices rc=$?"; ls $d; rm -rf $d
