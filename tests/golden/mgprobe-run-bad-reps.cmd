OCL_ICD_VENDORS=/nonexistent $MGPROBE run --reps 0
