OCL_ICD_VENDORS=/nonexistent $MGPROBE check tests/golden/data/profile-bad.json configs/suites/pocl-small.json
