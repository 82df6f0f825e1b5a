OCL_ICD_VENDORS=/nonexistent $MGPROBE run -o /tmp/mgprobe-golden-none.json
