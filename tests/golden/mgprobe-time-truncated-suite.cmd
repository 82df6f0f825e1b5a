OCL_ICD_VENDORS=/nonexistent $MGPROBE time --suite tests/golden/data/suite-truncated.json
