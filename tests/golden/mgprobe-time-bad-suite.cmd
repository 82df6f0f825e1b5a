OCL_ICD_VENDORS=/nonexistent $MGPROBE time --suite tests/golden/data/suite-bad.json -o /tmp/mgprobe-golden-t.json
