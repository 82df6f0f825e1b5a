$MGPROBE --version
