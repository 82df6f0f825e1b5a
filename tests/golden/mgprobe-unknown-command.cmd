$MGPROBE devics
