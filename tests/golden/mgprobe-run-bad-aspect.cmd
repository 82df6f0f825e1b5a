OCL_ICD_VENDORS=/nonexistent $MGPROBE run --aspects warp,wrap -o /nonexistent/p.json
