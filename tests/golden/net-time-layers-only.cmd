$MGSIM net --config configs/devices/adreno640.json tests/networks/tiny.json --layers-only tests/networks/tiny-schedules.json --no-cache -v
