$MGSIM prune --config configs/devices/mali-g76-mp5.json --space tests/golden/data/space-mm-small.json --rules configs/rules/romou.json --summary --golden tests/golden/data/prune-mm-small-mali.json
