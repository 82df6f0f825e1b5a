OCL_ICD_VENDORS=/nonexistent $MGPROBE run --help
