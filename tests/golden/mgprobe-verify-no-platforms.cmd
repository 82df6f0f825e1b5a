OCL_ICD_VENDORS=/nonexistent $MGPROBE verify eltwise H=3 layout=buffer
