#!/usr/bin/env python3
"""gen.py - write the shipped network descriptions of configs/networks/.

Usage: python3 configs/networks/gen.py [OUTDIR]   (default: this folder)

Each network is built layer by layer by a small builder that infers every
output shape and counts multiply-accumulates (MACs) and parameters the way
the C loader (sim/net/) does, so the written "macs" and "params" are a
second, independent count that the loader checks.  The format is
configs/networks/README.md.  Shapes are NHWC, [N, H, W, C].
"""
import json
import os
import sys


def pair(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


class Net:
    """A network under construction: layers in order, shapes by name."""

    def __init__(self, name, description, source, published, inputs):
        self.name, self.description, self.source = name, description, source
        self.published = published
        self.inputs = [{"name": n, "shape": list(s)} for n, s in inputs]
        self.shapes = {n: list(s) for n, s in inputs}
        self.layers, self.macs, self.params = [], 0, 0

    def _add(self, name, op, inputs, shape, keys, macs=0, params=0):
        assert name not in self.shapes, name
        layer = {"name": name, "op": op, "inputs": list(inputs), "shape": shape}
        layer.update(keys)
        self.layers.append(layer)
        self.shapes[name] = shape
        self.macs += macs
        self.params += params
        return name

    def conv(self, name, x, cout, k, stride=1, pad=None, dw=False, act="relu", bias=True,
             dilation=1):
        n, h, w, cin = self.shapes[x]
        kh, kw = pair(k)
        sh, sw = pair(stride)
        dh, dw_ = pair(dilation)
        ph, pw = pair(pad) if pad is not None else [dh * (kh - 1) // 2, dw_ * (kw - 1) // 2]
        ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        wo = (w + 2 * pw - dw_ * (kw - 1) - 1) // sw + 1
        if dw:
            assert cout == cin, name
        cpg = 1 if dw else cin
        keys = {"kernel": [kh, kw]}
        if [sh, sw] != [1, 1]:
            keys["stride"] = [sh, sw]
        if [ph, pw] != [0, 0]:
            keys["pad"] = [ph, pw]
        if [dh, dw_] != [1, 1]:
            keys["dilation"] = [dh, dw_]
        if dw:
            keys["depthwise"] = True
        keys["bias"] = bias
        keys["act"] = act
        macs = n * ho * wo * cout * cpg * kh * kw
        params = cout * cpg * kh * kw + (cout if bias else 0)
        return self._add(name, "conv2d", [x], [n, ho, wo, cout], keys, macs, params)

    def fc(self, name, x, cout, act="none", bias=True):
        n, h, w, cin = self.shapes[x]
        return self._add(name, "fc", [x], [n, h, w, cout], {"bias": bias, "act": act},
                         n * h * w * cin * cout, cin * cout + (cout if bias else 0))

    def pool(self, name, x, kind, k, stride, pad=0, ceil=False):
        n, h, w, c = self.shapes[x]
        kh, kw = pair(k)
        sh, sw = pair(stride)
        ph, pw = pair(pad)

        def out(i, kk, s, p):
            span = i + 2 * p - kk
            return (-(-span // s) if ceil else span // s) + 1

        keys = {"kind": kind, "kernel": [kh, kw], "stride": [sh, sw]}
        if [ph, pw] != [0, 0]:
            keys["pad"] = [ph, pw]
        if ceil:
            keys["ceil"] = True
        return self._add(name, "pool", [x], [n, out(h, kh, sh, ph), out(w, kw, sw, pw), c], keys)

    def gpool(self, name, x):
        n, _, _, c = self.shapes[x]
        return self._add(name, "gpool", [x], [n, 1, 1, c], {})

    def add(self, name, xs, act="none"):
        return self._add(name, "add", xs, list(self.shapes[xs[0]]), {"act": act})

    def concat(self, name, xs):
        s = list(self.shapes[xs[0]])
        s[3] = sum(self.shapes[x][3] for x in xs)
        return self._add(name, "concat", xs, s, {})

    def resize(self, name, x, h, w):
        n, _, _, c = self.shapes[x]
        return self._add(name, "resize", [x], [n, h, w, c], {})

    def reshape(self, name, x, shape):
        return self._add(name, "reshape", [x], list(shape), {})

    def matmul(self, name, a, b, transpose_b=False):
        n, h, m, k = self.shapes[a]
        p = self.shapes[b][2] if transpose_b else self.shapes[b][3]
        keys = {"transpose_b": True} if transpose_b else {}
        return self._add(name, "matmul", [a, b], [n, h, m, p], keys, n * h * m * k * p)

    def softmax(self, name, x):
        return self._add(name, "softmax", [x], list(self.shapes[x]), {})

    def layernorm(self, name, x):
        c = self.shapes[x][3]
        return self._add(name, "layernorm", [x], list(self.shapes[x]), {}, 0, 2 * c)

    def document(self, outputs):
        return {
            "schema": "mgsim-network/1",
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "published": self.published,
            "macs": self.macs,
            "params": self.params,
            "inputs": self.inputs,
            "outputs": outputs,
            "layers": self.layers,
        }


# ---- the networks -------------------------------------------------------------------------

PF = "ParallelFusion (Jeong et al., EMDL'21) Table 1"


def mobilenet_v1():
    net = Net("mobilenet_v1", "MobileNet-V1 1.0, 224x224 (ImageNet classifier)",
              "Howard et al. 2017, arXiv:1704.04861, Table 1 (depth multiplier 1.0)",
              {"macs": 575e6, "params": 4.2e6, "tolerance": 0.02,
               "source": PF + ": 575M FLOPs (multiply-adds), 4.2M params; the paper "
               "itself gives 569M mult-adds, 4.2M params"},
              [("input", [1, 224, 224, 3])])
    x = net.conv("conv0", "input", 32, 3, 2)
    cfg = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + \
          [(1024, 2), (1024, 1)]
    for i, (c, s) in enumerate(cfg, 1):
        x = net.conv("dw%d" % i, x, net.shapes[x][3], 3, s, dw=True)
        x = net.conv("pw%d" % i, x, c, 1)
    x = net.gpool("avgpool", x)
    x = net.fc("logits", x, 1000)
    return net.document([x])


def mnv2_backbone(net, x, output_stride=32):
    """MobileNet-V2 1.0 up to its last inverted-residual block (Sandler et al.
    Table 2); output_stride 8 or 16 turns later strides into dilation."""
    x = net.conv("conv0", x, 32, 3, 2, act="relu6")
    stride_now, rate = 2, 1
    cfg = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
           (6, 160, 3, 2), (6, 320, 1, 1)]
    b = 0
    for t, c, n, s in cfg:
        for i in range(n):
            stride = s if i == 0 else 1
            dil = rate
            if stride > 1 and stride_now >= output_stride:
                rate *= stride
                stride = 1
            elif stride > 1:
                stride_now *= stride
            cin = net.shapes[x][3]
            inp, p = x, "b%d_" % b
            if t != 1:
                x = net.conv(p + "expand", x, cin * t, 1, act="relu6")
            x = net.conv(p + "dw", x, cin * t, 3, stride, dw=True, act="relu6", dilation=dil)
            x = net.conv(p + "project", x, c, 1, act="none")
            if stride == 1 and cin == c:
                x = net.add(p + "add", [inp, x])
            b += 1
    return x


def mobilenet_v2():
    net = Net("mobilenet_v2", "MobileNet-V2 1.0, 224x224 (ImageNet classifier)",
              "Sandler et al. 2018, arXiv:1801.04381, Table 2 (width multiplier 1.0)",
              {"macs": 300e6, "params": 3.4e6, "tolerance": 0.03,
               "source": PF + ": 300M FLOPs (multiply-adds), 3.4M params (as the paper's "
               "Table 3)"},
              [("input", [1, 224, 224, 3])])
    x = mnv2_backbone(net, "input")
    x = net.conv("conv_last", x, 1280, 1, act="relu6")
    x = net.gpool("avgpool", x)
    x = net.fc("logits", x, 1000)
    return net.document([x])


def deeplab_v3():
    net = Net("deeplab_v3", "DeepLab-V3, MobileNet-V2 backbone at output stride 16, "
              "image-pooling + 1x1 ASPP (no atrous branches, as the MobileNet-V2 DeepLab "
              "models), 21 classes, 257x257",
              "Chen et al. 2017, arXiv:1706.05587 (ASPP with image pooling); Sandler et al. "
              "2018 Section 6.3 (the MobileNet-V2 DeepLab-V3 head: output stride 16, image "
              "pooling and one 1x1 branch)",
              {"macs": 734e6, "tolerance": 0.03,
               "source": PF + ": 734M FLOPs (multiply-adds); its 39M params do not fit "
               "a MobileNet-V2 backbone (this graph has 2.1M), so only the FLOPs are "
               "checked"},
              [("input", [1, 257, 257, 3])])
    x = mnv2_backbone(net, "input", output_stride=16)
    _, h, w, _ = net.shapes[x]
    p = net.gpool("aspp_pool", x)
    p = net.conv("aspp_pool_conv", p, 256, 1)
    p = net.resize("aspp_pool_up", p, h, w)
    a = net.conv("aspp_conv", x, 256, 1)
    x = net.concat("aspp_concat", [p, a])
    x = net.conv("aspp_project", x, 256, 1)
    x = net.conv("logits", x, 21, 1, act="none")
    x = net.resize("upsample", x, 257, 257)
    return net.document([x])


def squeezenet_v1():
    net = Net("squeezenet_v1", "SqueezeNet v1.0, 224x224 (ImageNet classifier)",
              "Iandola et al. 2016, arXiv:1602.07360, Table 1 (v1.0; Caffe pooling rounds "
              "up)",
              {"macs": 833e6, "params": 1.25e6, "tolerance": 0.03,
               "source": PF + ": 833M FLOPs (multiply-adds), 1.25M params"},
              [("input", [1, 224, 224, 3])])
    x = net.conv("conv1", "input", 96, 7, 2, pad=0)
    x = net.pool("pool1", x, "max", 3, 2, ceil=True)

    def fire(i, x, s, e):
        sq = net.conv("fire%d_squeeze" % i, x, s, 1)
        a = net.conv("fire%d_expand1" % i, sq, e, 1)
        b = net.conv("fire%d_expand3" % i, sq, e, 3)
        return net.concat("fire%d_concat" % i, [a, b])

    x = fire(2, x, 16, 64)
    x = fire(3, x, 16, 64)
    x = fire(4, x, 32, 128)
    x = net.pool("pool4", x, "max", 3, 2, ceil=True)
    x = fire(5, x, 32, 128)
    x = fire(6, x, 48, 192)
    x = fire(7, x, 48, 192)
    x = fire(8, x, 64, 256)
    x = net.pool("pool8", x, "max", 3, 2, ceil=True)
    x = fire(9, x, 64, 256)
    x = net.conv("conv10", x, 1000, 1)
    x = net.gpool("avgpool", x)
    return net.document([x])


def resnet_v2_50():
    net = Net("resnet_v2_50", "ResNet-V2-50 (pre-activation, bottleneck), 224x224; 50 is "
              "the depth ParallelFusion's 25.56M params identify",
              "He et al. 2016, arXiv:1603.05027 (pre-activation units) in the ResNet-50 "
              "layout of arXiv:1512.03385 Table 1 (a stage's stride in its first 1x1); "
              "batch norms folded into the convolutions (each conv carries a bias); each "
              "add's ReLU stands for the next unit's pre-activation (an elementwise pass "
              "either way)",
              {"macs": 3.87e9, "params": 25.56e6, "tolerance": 0.02,
               "source": PF + ": 3.87G FLOPs (multiply-adds), 25.56M params"},
              [("input", [1, 224, 224, 3])])
    x = net.conv("conv1", "input", 64, 7, 2)
    x = net.pool("pool1", x, "max", 3, 2, pad=1)
    for st, (units, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)], 1):
        for u in range(units):
            p = "s%du%d_" % (st, u + 1)
            stride = 2 if u == 0 and st > 1 else 1
            sc = x
            if u == 0:
                sc = net.conv(p + "shortcut", x, width * 4, 1, stride, act="none")
            y = net.conv(p + "conv1", x, width, 1, stride)
            y = net.conv(p + "conv2", y, width, 3)
            y = net.conv(p + "conv3", y, width * 4, 1, act="none")
            x = net.add(p + "add", [sc, y], act="relu")
    x = net.gpool("avgpool", x)
    x = net.fc("logits", x, 1000)
    return net.document([x])


def resnet_18():
    net = Net("resnet_18", "ResNet-18, 224x224 (ImageNet classifier), batch norms folded",
              "He et al. 2016, arXiv:1512.03385, Table 1 (18-layer)",
              {"macs": 1.8e9, "params": 11.7e6, "tolerance": 0.03,
               "source": "He et al. 2016 Table 1: 1.8 x 10^9 FLOPs (multiply-adds); 11.7M "
               "params (torchvision's count)"},
              [("input", [1, 224, 224, 3])])
    x = net.conv("conv1", "input", 64, 7, 2)
    x = net.pool("pool1", x, "max", 3, 2, pad=1)
    for st, width in enumerate([64, 128, 256, 512], 1):
        for u in range(2):
            p = "s%du%d_" % (st, u + 1)
            stride = 2 if u == 0 and st > 1 else 1
            sc = x
            if stride != 1 or net.shapes[x][3] != width:
                sc = net.conv(p + "shortcut", x, width, 1, stride, act="none")
            y = net.conv(p + "conv1", x, width, 3, stride)
            y = net.conv(p + "conv2", y, width, 3, act="none")
            x = net.add(p + "add", [sc, y], act="relu")
    x = net.gpool("avgpool", x)
    x = net.fc("logits", x, 1000)
    return net.document([x])


def inception_v3():
    net = Net("inception_v3", "Inception-V3, 299x299 (ImageNet classifier, no auxiliary "
              "head)",
              "Szegedy et al. 2016, arXiv:1512.00567, Table 1 and Figures 5-7, as the "
              "TF-slim/torchvision graph; batch norms folded",
              {"macs": 5.73e9, "params": 23e6, "tolerance": 0.04,
               "source": PF + ": 5.73G FLOPs (multiply-adds), 23M params (without the "
               "auxiliary classifier: 23.8M)"},
              [("input", [1, 299, 299, 3])])
    c = net.conv
    x = c("conv1a", "input", 32, 3, 2, pad=0)
    x = c("conv2a", x, 32, 3, pad=0)
    x = c("conv2b", x, 64, 3)
    x = net.pool("pool1", x, "max", 3, 2)
    x = c("conv3b", x, 80, 1)
    x = c("conv4a", x, 192, 3, pad=0)
    x = net.pool("pool2", x, "max", 3, 2)

    def block_a(n, x, pool_c):
        b1 = c(n + "b1x1", x, 64, 1)
        b5 = c(n + "b5x5_1", x, 48, 1)
        b5 = c(n + "b5x5_2", b5, 64, 5)
        b3 = c(n + "b3x3_1", x, 64, 1)
        b3 = c(n + "b3x3_2", b3, 96, 3)
        b3 = c(n + "b3x3_3", b3, 96, 3)
        bp = net.pool(n + "pool", x, "avg", 3, 1, pad=1)
        bp = c(n + "pool_proj", bp, pool_c, 1)
        return net.concat(n + "concat", [b1, b5, b3, bp])

    x = block_a("5b_", x, 32)
    x = block_a("5c_", x, 64)
    x = block_a("5d_", x, 64)
    b3 = c("6a_b3x3", x, 384, 3, 2, pad=0)
    bd = c("6a_bdbl_1", x, 64, 1)
    bd = c("6a_bdbl_2", bd, 96, 3)
    bd = c("6a_bdbl_3", bd, 96, 3, 2, pad=0)
    bp = net.pool("6a_pool", x, "max", 3, 2)
    x = net.concat("6a_concat", [b3, bd, bp])

    def block_c(n, x, c7):
        b1 = c(n + "b1x1", x, 192, 1)
        b7 = c(n + "b7_1", x, c7, 1)
        b7 = c(n + "b7_2", b7, c7, [1, 7])
        b7 = c(n + "b7_3", b7, 192, [7, 1])
        bd = c(n + "bdbl_1", x, c7, 1)
        bd = c(n + "bdbl_2", bd, c7, [7, 1])
        bd = c(n + "bdbl_3", bd, c7, [1, 7])
        bd = c(n + "bdbl_4", bd, c7, [7, 1])
        bd = c(n + "bdbl_5", bd, 192, [1, 7])
        bp = net.pool(n + "pool", x, "avg", 3, 1, pad=1)
        bp = c(n + "pool_proj", bp, 192, 1)
        return net.concat(n + "concat", [b1, b7, bd, bp])

    x = block_c("6b_", x, 128)
    x = block_c("6c_", x, 160)
    x = block_c("6d_", x, 160)
    x = block_c("6e_", x, 192)
    b3 = c("7a_b3_1", x, 192, 1)
    b3 = c("7a_b3_2", b3, 320, 3, 2, pad=0)
    b7 = c("7a_b7_1", x, 192, 1)
    b7 = c("7a_b7_2", b7, 192, [1, 7])
    b7 = c("7a_b7_3", b7, 192, [7, 1])
    b7 = c("7a_b7_4", b7, 192, 3, 2, pad=0)
    bp = net.pool("7a_pool", x, "max", 3, 2)
    x = net.concat("7a_concat", [b3, b7, bp])

    def block_e(n, x):
        b1 = c(n + "b1x1", x, 320, 1)
        b3 = c(n + "b3_1", x, 384, 1)
        b3a = c(n + "b3_2a", b3, 384, [1, 3])
        b3b = c(n + "b3_2b", b3, 384, [3, 1])
        bd = c(n + "bdbl_1", x, 448, 1)
        bd = c(n + "bdbl_2", bd, 384, 3)
        bda = c(n + "bdbl_3a", bd, 384, [1, 3])
        bdb = c(n + "bdbl_3b", bd, 384, [3, 1])
        bp = net.pool(n + "pool", x, "avg", 3, 1, pad=1)
        bp = c(n + "pool_proj", bp, 192, 1)
        return net.concat(n + "concat", [b1, b3a, b3b, bda, bdb, bp])

    x = block_e("7b_", x)
    x = block_e("7c_", x)
    x = net.gpool("avgpool", x)
    x = net.fc("logits", x, 1000)
    return net.document([x])


def bert_base_layer():
    S, H, A, F = 128, 768, 12, 3072
    dk = H // A
    macs = S * (4 * H * H + 2 * H * F) + 2 * S * S * H
    net = Net("bert_base_layer", "one BERT-base encoder layer (hidden 768, 12 heads, FFN "
              "3072), 128 tokens, batch 1",
              "Devlin et al. 2018, arXiv:1810.04805 Section 3 (BERT-base: L=12, H=768, A=12, "
              "feed-forward 4H); Vaswani et al. 2017 (the encoder layer)",
              {"macs": macs, "params": 4 * H * H + 4 * H + 2 * H * F + F + H + 4 * H,
               "tolerance": 0.0,
               "source": "no measured figure is published per layer: the figures are the "
               "formula S(4H^2 + 8H^2) + 2 S^2 H MACs and 12H^2 + 13H params (biases, two "
               "layer norms) from the paper's dimensions"},
              [("input", [1, 1, S, H])])
    q = net.fc("q", "input", H)
    k = net.fc("k", "input", H)
    v = net.fc("v", "input", H)
    qh = net.reshape("q_heads", q, [1, A, S, dk])
    kh = net.reshape("k_heads", k, [1, A, S, dk])
    vh = net.reshape("v_heads", v, [1, A, S, dk])
    s = net.matmul("scores", qh, kh, transpose_b=True)
    p = net.softmax("probs", s)
    o = net.matmul("context", p, vh)
    o = net.reshape("context_merged", o, [1, 1, S, H])
    o = net.fc("attn_out", o, H)
    x = net.add("attn_residual", ["input", o])
    x = net.layernorm("attn_norm", x)
    f = net.fc("ffn_in", x, F, act="gelu")
    f = net.fc("ffn_out", f, H)
    y = net.add("ffn_residual", [x, f])
    y = net.layernorm("ffn_norm", y)
    return net.document([y])


NETWORKS = [mobilenet_v1, mobilenet_v2, deeplab_v3, squeezenet_v1, resnet_v2_50, resnet_18,
            inception_v3, bert_base_layer]


def dump(doc):
    """JSON with one layer per line, numbers as integers where integral."""
    def num(v):
        return int(v) if isinstance(v, float) and v.is_integer() else v

    doc["published"] = {k: num(v) for k, v in doc["published"].items()}
    head = ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v))
                       for k, v in doc.items() if k != "layers")
    lines = ",\n".join("    " + json.dumps(l) for l in doc["layers"])
    return "{\n" + head + ',\n  "layers": [\n' + lines + "\n  ]\n}\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for build in NETWORKS:
        doc = build()
        pub = doc["published"]
        ratio = doc["macs"] / pub["macs"]
        path = os.path.join(out, doc["name"] + ".json")
        with open(path + ".tmp", "w") as f:
            f.write(dump(doc))
        os.replace(path + ".tmp", path)
        print("%-16s %4d layers  %7.1fM MACs (published %7.1fM, x%.3f)  %6.2fM params"
              % (doc["name"], len(doc["layers"]), doc["macs"] / 1e6, pub["macs"] / 1e6, ratio,
                 doc["params"] / 1e6))


if __name__ == "__main__":
    main()
