OCL_ICD_VENDORS=/nonexistent $MGPROBE verify --matrix tests/golden/data/verify-bad-matrix.txt
