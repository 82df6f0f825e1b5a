OCL_ICD_VENDORS=/nonexistent $MGPROBE check --help
