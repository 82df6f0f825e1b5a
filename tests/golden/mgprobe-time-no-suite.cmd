OCL_ICD_VENDORS=/nonexistent $MGPROBE time
