OCL_ICD_VENDORS=/nonexistent $MGPROBE devices
