"""Paddle-style mobile OCR (PP-OCR: text detector, recognizer, angle
classifier) in the form Paddle2ONNX writes it: every weight a Constant
node (no initializers), tensors named `conv2d_3.tmp_0`, nodes
`p2o.Conv.3`, input `x`. Written in torch after PaddleOCR's modules
(ppocr/modeling: MobileNetV3 backbones, DBFPN neck, DBHead, the CRNN
SequenceEncoder and CTCHead, the direction classifier), exported at opset
11 and rewritten:
- hard_swish as Mul(x, HardSigmoid(x, alpha=1/6, beta=0.5)), and the SE
  gate as Paddle's hardsigmoid (slope 0.2, offset 0.5) - not torch's 1/6;
- BatchNormalization kept as nodes in the detector and the classifier
  (Paddle2ONNX does not fold it), folded in the recognizer."""

from common import (check, export, initializers_to_constants, randomize_bn, register, seed,
                    torch)

# PaddleOCR's MobileNetV3 configurations: kernel, expansion, channels, SE,
# activation, stride.
LARGE = [[3, 16, 16, False, "relu", 1], [3, 64, 24, False, "relu", 2],
         [3, 72, 24, False, "relu", 1], [5, 72, 40, True, "relu", 2],
         [5, 120, 40, True, "relu", 1], [5, 120, 40, True, "relu", 1],
         [3, 240, 80, False, "hardswish", 2], [3, 200, 80, False, "hardswish", 1],
         [3, 184, 80, False, "hardswish", 1], [3, 184, 80, False, "hardswish", 1],
         [3, 480, 112, True, "hardswish", 1], [3, 672, 112, True, "hardswish", 1],
         [5, 672, 160, True, "hardswish", 2], [5, 960, 160, True, "hardswish", 1],
         [5, 960, 160, True, "hardswish", 1]]
SMALL = [[3, 16, 16, True, "relu", 2], [3, 72, 24, False, "relu", 2],
         [3, 88, 24, False, "relu", 1], [5, 96, 40, True, "hardswish", 2],
         [5, 240, 40, True, "hardswish", 1], [5, 240, 40, True, "hardswish", 1],
         [5, 120, 48, True, "hardswish", 1], [5, 144, 48, True, "hardswish", 1],
         [5, 288, 96, True, "hardswish", 2], [5, 576, 96, True, "hardswish", 1],
         [5, 576, 96, True, "hardswish", 1]]


def make_divisible(v, divisor=8, min_value=None):
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _modules():
    t = torch()
    nn = t.nn

    class HardSigmoid(t.autograd.Function):
        """Paddle's hardsigmoid(x, slope, offset) as one ONNX HardSigmoid."""
        @staticmethod
        def forward(ctx, x, slope, offset):
            return t.clamp(x * slope + offset, 0.0, 1.0)

        @staticmethod
        def symbolic(g, x, slope, offset):
            return g.op("HardSigmoid", x, alpha_f=slope, beta_f=offset)

    def hardsigmoid(x, slope=0.2, offset=0.5):
        return HardSigmoid.apply(x, slope, offset)

    class Act(nn.Module):
        def __init__(self, kind):
            super().__init__()
            self.kind = kind

        def forward(self, x):
            if self.kind == "relu":
                return t.relu(x)
            if self.kind == "hardswish":  # Paddle2ONNX below opset 14
                return x * hardsigmoid(x, 1.0 / 6.0, 0.5)
            return x

    class ConvBN(nn.Module):
        def __init__(self, cin, cout, k, stride, groups=1, act=None):
            super().__init__()
            self.conv = nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False)
            self.bn = nn.BatchNorm2d(cout)
            self.act = Act(act)

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    class SE(nn.Module):
        def __init__(self, c, reduction=4):
            super().__init__()
            self.conv1 = nn.Conv2d(c, c // reduction, 1)
            self.conv2 = nn.Conv2d(c // reduction, c, 1)

        def forward(self, x):
            s = t.nn.functional.adaptive_avg_pool2d(x, 1)
            s = hardsigmoid(self.conv2(t.relu(self.conv1(s))))
            return x * s

    class Residual(nn.Module):
        def __init__(self, cin, mid, cout, k, stride, se, act):
            super().__init__()
            self.shortcut = stride == 1 and cin == cout
            self.expand = ConvBN(cin, mid, 1, 1, act=act)
            self.dw = ConvBN(mid, mid, k, stride, groups=mid, act=act)
            self.se = SE(mid) if se else None
            self.linear = ConvBN(mid, cout, 1, 1)

        def forward(self, x):
            y = self.dw(self.expand(x))
            if self.se is not None:
                y = self.se(y)
            y = self.linear(y)
            return x + y if self.shortcut else y

    class MobileNetV3(nn.Module):
        """PaddleOCR's det/cls MobileNetV3 (strides ints) or rec variant
        (strides tuples (2, 1): the width is kept for the sequence).
        stages: return the feature maps before each stride-2 block (det)."""

        def __init__(self, cfg, scale, strides=None, stages=False, stem_stride=2):
            super().__init__()
            c = make_divisible(16 * scale)
            self.stem = ConvBN(3, c, 3, stem_stride, act="hardswish")
            self.blocks = nn.ModuleList()
            self.stage_ends = []
            for i, (k, exp, co, se, act, s) in enumerate(cfg):
                s = strides[i] if strides else s
                if stages and s == 2 and i > 2:
                    self.stage_ends.append(len(self.blocks) - 1)
                mid, co = make_divisible(scale * exp), make_divisible(scale * co)
                self.blocks.append(Residual(c, mid, co, k, s, se, act))
                c = co
            self.out_ch = make_divisible(scale * cfg[-1][1])
            self.last = ConvBN(c, self.out_ch, 1, 1, act="hardswish")
            self.stages = stages
            self.stage_ch = [self.blocks[i].linear.conv.out_channels for i in self.stage_ends]

        def forward(self, x):
            x = self.stem(x)
            outs = []
            for i, b in enumerate(self.blocks):
                x = b(x)
                if i in self.stage_ends:
                    outs.append(x)
            x = self.last(x)
            return outs + [x] if self.stages else x

    class DBNet(nn.Module):
        """Backbone, DBFPN neck (1x1 lateral convs, nearest x2 top-down
        adds, 3x3 convs, nearest x8/x4/x2 upsampling, Concat), DBHead
        (3x3 conv BN ReLU, two ConvTranspose 2x2/2, Sigmoid)."""

        def __init__(self, scale=0.5, out=96):
            super().__init__()
            self.backbone = MobileNetV3(LARGE, scale, stages=True)
            chans = self.backbone.stage_ch + [self.backbone.out_ch]
            self.ins = nn.ModuleList([nn.Conv2d(c, out, 1, bias=False) for c in chans])
            self.ps = nn.ModuleList([nn.Conv2d(out, out // 4, 3, padding=1, bias=False)
                                     for _ in chans])
            q = out // 4
            self.head = nn.Sequential(
                nn.Conv2d(out, q, 3, padding=1, bias=False), nn.BatchNorm2d(q), nn.ReLU(),
                nn.ConvTranspose2d(q, q, 2, 2), nn.BatchNorm2d(q), nn.ReLU(),
                nn.ConvTranspose2d(q, 1, 2, 2))

        def forward(self, x):
            up = t.nn.functional.interpolate
            c2, c3, c4, c5 = self.backbone(x)
            in5, in4, in3, in2 = [m(c) for m, c in zip(reversed(self.ins), (c5, c4, c3, c2))]
            out4 = in4 + up(in5, scale_factor=2.0, mode="nearest")
            out3 = in3 + up(out4, scale_factor=2.0, mode="nearest")
            out2 = in2 + up(out3, scale_factor=2.0, mode="nearest")
            p5, p4, p3, p2 = [m(c) for m, c in zip(reversed(self.ps), (in5, out4, out3, out2))]
            p5 = up(p5, scale_factor=8.0, mode="nearest")
            p4 = up(p4, scale_factor=4.0, mode="nearest")
            p3 = up(p3, scale_factor=2.0, mode="nearest")
            return t.sigmoid(self.head(t.cat([p5, p4, p3, p2], dim=1)))

    class CRNN(nn.Module):
        """Rec MobileNetV3 small (strides (2, 1) so that the width stays),
        a MaxPool 2x2, Im2Seq (squeeze H, [N, W, C]), two-layer BiLSTM
        (hidden 48), CTC head: Linear to 6625 classes, Softmax."""

        def __init__(self, scale=0.5, hidden=48, classes=6625):
            super().__init__()
            strides = [(2, 1), (2, 1), 1, (2, 1), 1, 1, 1, 1, 1, 1, 1]
            self.backbone = MobileNetV3(SMALL, scale, strides=strides)
            self.pool = nn.MaxPool2d(2, 2)
            self.lstm = nn.LSTM(self.backbone.out_ch, hidden, num_layers=2, bidirectional=True,
                                batch_first=True)
            self.fc = nn.Linear(2 * hidden, classes)

        def forward(self, x):
            x = self.pool(self.backbone(x))
            x = x.squeeze(2).permute(0, 2, 1)
            x, _ = self.lstm(x)
            return t.softmax(self.fc(x), dim=2)

    class Classifier(nn.Module):
        """Direction classifier: MobileNetV3 small x0.35, pool, Linear(2),
        Softmax."""

        def __init__(self, scale=0.35):
            super().__init__()
            self.backbone = MobileNetV3(SMALL, scale)
            self.fc = nn.Linear(self.backbone.out_ch, 2)

        def forward(self, x):
            x = t.nn.functional.adaptive_avg_pool2d(self.backbone(x), 1)
            return t.softmax(self.fc(t.flatten(x, 1)), dim=1)

    return DBNet, CRNN, Classifier


def paddle_style(model, out_name):
    """Paddle2ONNX's names and weights: Constant nodes for every weight;
    node names p2o.<Op>.<k>; values <op>_<k>.tmp_0; input x."""
    initializers_to_constants(model)
    g = model.graph
    count = {}
    rename = {g.input[0].name: "x"}
    for n in g.node:
        if n.op_type == "Constant":
            continue
        k = count.get(n.op_type, 0)
        count[n.op_type] = k + 1
        n.name = "p2o.%s.%d" % (n.op_type, k)
        for j, o in enumerate(n.output):
            rename[o] = "%s_%d.tmp_%d" % (n.op_type.lower(), k, j)
    # Weights: the consumer's name with .w_<j> (Paddle's conv2d_0.w_0).
    for n in g.node:
        if n.op_type == "Constant":
            continue
        for j, x in enumerate(n.input):
            if x and x not in rename:
                rename[x] = n.name.replace("p2o.", "").lower().replace(".", "_") + ".w_%d" % j
    rename[g.output[0].name] = out_name
    for n in g.node:
        for lst in (n.input, n.output):
            for j, x in enumerate(lst):
                if x in rename:
                    lst[j] = rename[x]
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        vi.name = rename.get(vi.name, vi.name)
    model.producer_name, model.producer_version = "PaddlePaddle", "2.4"
    return check(model)


def _build(which, dynamic, size, opset=11):
    seed(0)
    t = torch()
    DBNet, CRNN, Classifier = _modules()
    net = {"det": DBNet, "rec": CRNN, "cls": Classifier}[which]()
    g = t.Generator().manual_seed(123)
    randomize_bn(net, [t.randn(2, 3, size[0], size[1], generator=g)])
    keep_bn = which != "rec"
    m = export(net, (t.randn(1, 3, size[0], size[1]),), opset, dynamic, ["x"], ["y"],
               keep_bn=keep_bn)
    out = {"det": "sigmoid_0.tmp_0", "rec": "softmax_0.tmp_0", "cls": "softmax_0.tmp_0"}[which]
    return paddle_style(m, out)


@register("ocr_det", "fp32", "PP-OCR-style DBNet text detector, 1x3x640x640, Paddle2ONNX "
          "form (Constant-node weights, BatchNormalization nodes): MobileNetV3-large x0.5 "
          "(depthwise 3x3/5x5, HardSigmoid/HardSwish, SE), DBFPN with nearest Resize, "
          "ConvTranspose 2x2/2 head, Sigmoid; opset 11")
def ocr_det(dynamic):
    return _build("det", dynamic, (640, 640))


@register("ocr_rec", "fp32", "PP-OCR-style CRNN recognizer, 1x3x32x320, Paddle2ONNX form: "
          "MobileNetV3-small x0.5 with (2,1) strides, MaxPool, Squeeze/Transpose, 2-layer "
          "bidirectional LSTM (hidden 48), Linear to 6625 classes, Softmax; opset 11")
def ocr_rec(dynamic):
    return _build("rec", dynamic, (32, 320))


@register("ocr_cls", "fp32", "PP-OCR-style text direction classifier, 1x3x48x192, "
          "Paddle2ONNX form: MobileNetV3-small x0.35, pool, Linear(2), Softmax; opset 11")
def ocr_cls(dynamic):
    return _build("cls", dynamic, (48, 192))

