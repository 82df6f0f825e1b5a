$MGPROBE --help
