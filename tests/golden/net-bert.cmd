$MGSIM net configs/networks/bert_base_layer.json
