"""fp32 models exported by torch 1.13: torchvision architectures at their
published sizes, and small torch modules written after published ones
(1-D, dilated, transposed convolutions). Weights from torchvision's own
init (seeded); BatchNorm parameters and statistics randomized
(common.randomize_bn) so that folding them matters."""

from common import export, randomize_bn, register, seed, torch


def image(batch=1, size=224, channels=3):
    return torch().randn(batch, channels, size, size)


def calib(size=224, n=2, batch=4, channels=3):
    g = torch().Generator().manual_seed(123)
    return [torch().randn(batch, channels, size, size, generator=g) for _ in range(n)]


def tv():
    import torchvision
    return torchvision.models


def classifier(build, dynamic, opset, size=224, keep_bn=False, calib_size=None):
    seed(0)
    net = build()
    randomize_bn(net, calib(calib_size or size))
    return export(net, (image(1, size),), opset, dynamic, ["input"], ["output"],
                  keep_bn=keep_bn)


@register("resnet18", "fp32", "torchvision resnet18, 224x224, opset 13, BatchNorm folded "
          "into the convs by the exporter (its default)")
def resnet18(dynamic):
    return classifier(lambda: tv().resnet18(), dynamic, 13)


@register("resnet18_bn", "fp32", "torchvision resnet18, 224x224, opset 11, BatchNormalization "
          "kept as nodes (export in TrainingMode.PRESERVE)")
def resnet18_bn(dynamic):
    return classifier(lambda: tv().resnet18(), dynamic, 11, keep_bn=True)


@register("mobilenet_v2", "fp32", "torchvision mobilenet_v2, 224x224, opset 14: depthwise "
          "3x3, relu6 as Clip, inverted residuals")
def mobilenet_v2(dynamic):
    return classifier(lambda: tv().mobilenet_v2(), dynamic, 14)


@register("mobilenet_v3_small", "fp32", "torchvision mobilenet_v3_small, 224x224, opset 17: "
          "HardSwish, SE blocks with HardSigmoid, depthwise 3x3 and 5x5")
def mobilenet_v3_small(dynamic):
    return classifier(lambda: tv().mobilenet_v3_small(), dynamic, 17)


@register("mobilenet_v3_large", "fp32", "torchvision mobilenet_v3_large, 224x224, opset 13: "
          "hardswish exported as HardSigmoid + Mul (no HardSwish op before opset 14)")
def mobilenet_v3_large(dynamic):
    return classifier(lambda: tv().mobilenet_v3_large(), dynamic, 13)


@register("resnext_small", "fp32", "ResNeXt (torchvision ResNet class, Bottleneck blocks, "
          "groups 32, width 4, one block per stage), 224x224, opset 14: grouped 3x3 convs")
def resnext_small(dynamic):
    def build():
        from torchvision.models.resnet import Bottleneck, ResNet
        return ResNet(Bottleneck, [1, 1, 1, 1], groups=32, width_per_group=4)
    return classifier(build, dynamic, 14)


@register("shufflenet_v2", "fp32", "torchvision shufflenet_v2_x1_0, 224x224, opset 12: "
          "channel shuffle (Reshape/Transpose/Reshape), Split, depthwise convs")
def shufflenet_v2(dynamic):
    return classifier(lambda: tv().shufflenet_v2_x1_0(), dynamic, 12)


@register("squeezenet", "fp32", "torchvision squeezenet1_1, 224x224, opset 12: fire modules "
          "(1x1 squeeze, 1x1 and 3x3 expand, Concat), MaxPool ceil_mode")
def squeezenet(dynamic):
    return classifier(lambda: tv().squeezenet1_1(), dynamic, 12)


@register("efficientnet_b0", "fp32", "torchvision efficientnet_b0, 224x224, opset 16: SiLU "
          "as Sigmoid + Mul, SE blocks, depthwise 3x3 and 5x5")
def efficientnet_b0(dynamic):
    return classifier(lambda: tv().efficientnet_b0(), dynamic, 16)


@register("deeplab_aspp", "fp32", "torchvision deeplabv3_mobilenet_v3_large (random "
          "weights), 1x3x256x256, opset 13: dilated depthwise backbone, ASPP head with "
          "dilations 12/24/36 and image pooling, bilinear Resize to the input size")
def deeplab_aspp(dynamic):
    seed(0)
    from torchvision.models.segmentation import deeplabv3_mobilenet_v3_large
    net = deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=21,
                                       aux_loss=False)

    class Wrap(torch().nn.Module):  # the model returns a dict
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, x):
            return self.m(x)["out"]
    net = Wrap(net)
    randomize_bn(net, calib(256, n=1, batch=2))
    return export(net, (image(1, 256),), 13, dynamic, ["input"], ["output"])


@register("vit_tiny", "fp32", "torchvision VisionTransformer, ViT-Ti/16 (6 layers, "
          "hidden 192, 3 heads, MLP 768), 224x224, opset 14: patch Conv 16x16/16, "
          "LayerNorm decomposed, GELU as Erf, Softmax attention")
def vit_tiny(dynamic):
    seed(0)
    from torchvision.models.vision_transformer import VisionTransformer
    net = VisionTransformer(image_size=224, patch_size=16, num_layers=6, num_heads=3,
                            hidden_dim=192, mlp_dim=768, num_classes=1000)
    # torchvision zero-initializes the classifier head (the output would be
    # all zeros, and any encoder would match).
    t = torch()
    t.nn.init.normal_(net.heads.head.weight, std=0.02)
    t.nn.init.normal_(net.heads.head.bias, std=0.02)
    return export(net.eval(), (image(1, 224),), 14, dynamic, ["input"], ["output"])


# --- Small torch modules after published ones -------------------------------------

def _m5(nn):
    """M5 (Dai et al., the torchaudio tutorial's speech-command classifier):
    Conv1d 80/4 on raw audio, then three Conv1d 3 blocks with BatchNorm,
    ReLU and MaxPool1d 4, global average, Linear; plus two dilated Conv1d
    (dilation 2 and 4, a TCN-like context block)."""
    class M5(nn.Module):
        def __init__(self, n_out=35, c=64):
            super().__init__()
            layers = []
            chans = [(1, c, 80, 4, 1), (c, c, 3, 1, 1), (c, 2 * c, 3, 1, 1),
                     (2 * c, 2 * c, 3, 1, 1)]
            for cin, cout, k, s, d in chans:
                layers += [nn.Conv1d(cin, cout, k, stride=s, dilation=d), nn.BatchNorm1d(cout),
                           nn.ReLU(), nn.MaxPool1d(4)]
            for d in (2, 4):
                layers += [nn.Conv1d(2 * c, 2 * c, 3, dilation=d, padding=d),
                           nn.BatchNorm1d(2 * c), nn.ReLU()]
            self.features = nn.Sequential(*layers)
            self.fc = nn.Linear(2 * c, n_out)

        def forward(self, x):
            x = self.features(x)
            x = x.mean(dim=-1)
            return self.fc(x).log_softmax(dim=-1)
    return M5()


@register("conv1d_audio", "fp32", "M5-style raw-audio classifier: Conv1d 80/4 on 16000 "
          "samples, Conv1d 3 + BatchNorm1d + ReLU + MaxPool1d blocks, dilated Conv1d "
          "(2, 4), ReduceMean, Linear, LogSoftmax; opset 13")
def conv1d_audio(dynamic):
    seed(0)
    t = torch()
    net = _m5(t.nn)
    g = t.Generator().manual_seed(123)
    randomize_bn(net, [t.randn(4, 1, 16000, generator=g)])
    return export(net, (t.randn(1, 1, 16000),), 13, dynamic, ["waveform"], ["logits"])


def _dcgan(nn):
    """DCGAN generator (Radford et al., the PyTorch tutorial's netG): z
    [N, 100, 1, 1] -> ConvTranspose 4x4 (stride 1, then 2 with pad 1) +
    BatchNorm + ReLU, channels 512-256-128-64, last ConvTranspose to 3
    channels + Tanh: a 64x64 image."""
    ngf = 64
    return nn.Sequential(
        nn.ConvTranspose2d(100, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf),
        nn.ReLU(True),
        nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False), nn.Tanh())


@register("dcgan", "fp32", "DCGAN generator: latent [N,100,1,1] -> ConvTranspose2d 4x4 "
          "(strides 1, 2, 2, 2, 2) + BatchNorm + ReLU -> 64x64x3, Tanh; opset 11")
def dcgan(dynamic):
    seed(0)
    t = torch()
    net = _dcgan(t.nn)
    for mod in net.modules():  # the tutorial's init: N(0, 0.02)
        if isinstance(mod, t.nn.ConvTranspose2d):
            t.nn.init.normal_(mod.weight, 0.0, 0.02)
    g = t.Generator().manual_seed(123)
    randomize_bn(net, [t.randn(8, 100, 1, 1, generator=g)])
    return export(net, (t.randn(1, 100, 1, 1),), 11, dynamic, ["z"], ["image"])


def _autoencoder(nn):
    """A convolutional autoencoder (denoising/compression style): strided
    Conv2d encoder, ConvTranspose2d 3x3 stride 2 with output_padding 1
    decoder, Sigmoid."""
    def enc(cin, cout):
        return [nn.Conv2d(cin, cout, 3, 2, 1), nn.BatchNorm2d(cout), nn.ReLU()]

    def dec(cin, cout):
        return [nn.ConvTranspose2d(cin, cout, 3, 2, 1, output_padding=1), nn.BatchNorm2d(cout),
                nn.ReLU()]
    return nn.Sequential(*enc(3, 32), *enc(32, 64), *enc(64, 128), *enc(128, 256),
                         *dec(256, 128), *dec(128, 64), *dec(64, 32),
                         nn.ConvTranspose2d(32, 3, 3, 2, 1, output_padding=1), nn.Sigmoid())


@register("conv_autoencoder", "fp32", "Conv autoencoder, 1x3x256x256: Conv2d 3x3/2 encoder, "
          "ConvTranspose2d 3x3/2 (output_padding 1) decoder, BatchNorm, Sigmoid; opset 14")
def conv_autoencoder(dynamic):
    seed(0)
    t = torch()
    net = _autoencoder(t.nn)
    randomize_bn(net, calib(256, n=1, batch=2))
    return export(net, (image(1, 256),), 14, dynamic, ["input"], ["output"])
