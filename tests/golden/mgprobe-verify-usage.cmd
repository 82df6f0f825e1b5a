$MGPROBE verify --device 0 eltwise; $MGPROBE verify --jobs 0 eltwise; $MGPROBE verify --matrix x eltwise; $MGPROBE verify
