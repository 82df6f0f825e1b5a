$MGPROBE verify --help
