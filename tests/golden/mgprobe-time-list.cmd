OCL_ICD_VENDORS=/nonexistent $MGPROBE time --suite configs/suites/pocl-small.json --list
