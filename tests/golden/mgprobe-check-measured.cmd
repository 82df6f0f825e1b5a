OCL_ICD_VENDORS=/nonexistent $MGPROBE check configs/measured/*/profile.json configs/measured/*/timings.json configs/measured/*/profile.curves/*.json configs/suites/*.json
