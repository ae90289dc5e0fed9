"""A U-Net (the segmentation / matting / denoising
networks people deploy): an encoder of double 3x3 conv blocks with
MaxPool, dilated 3x3 convs at the bottom, a decoder that upsamples with
Resize (nearest at two levels, bilinear at the other two), concatenates
the skip and convolves; 1x1 head and Sigmoid. 1x3x256x256, fp32, BN folded
by the exporter. fp16.py and quant.py convert this same model."""

from common import export, randomize_bn, register, seed, torch

SIZE = 256
CHANNELS = (16, 32, 64, 128)


def _unet(nn, F):
    def block(cin, cout, dilation=1):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self, cin=3, cout=1, ch=CHANNELS):
            super().__init__()
            self.enc = nn.ModuleList()
            c = cin
            for i, co in enumerate(ch):
                # The deepest encoder block is dilated (a wider context
                # without another downsampling, as in DeepLab-style U-Nets).
                self.enc.append(block(c, co, 2 if i == len(ch) - 1 else 1))
                c = co
            self.pool = nn.MaxPool2d(2)
            self.bottom = nn.Sequential(block(c, 2 * c, 2), block(2 * c, 2 * c, 4))
            self.dec = nn.ModuleList()
            c = 2 * c
            for co in reversed(ch):
                self.dec.append(block(c + co, co))
                c = co
            self.head = nn.Conv2d(c, cout, 1)

        def forward(self, x):
            skips = []
            for e in self.enc:
                x = e(x)
                skips.append(x)
                x = self.pool(x)
            x = self.bottom(x)
            for i, (d, s) in enumerate(zip(self.dec, reversed(skips))):
                mode = "nearest" if i % 2 == 0 else "bilinear"
                kw = {} if mode == "nearest" else {"align_corners": False}
                x = F.interpolate(x, scale_factor=2.0, mode=mode, **kw)
                x = d(torch().cat([x, s], dim=1))
            return torch().sigmoid(self.head(x))
    return UNet()


def unet_model(dynamic, opset=13, size=SIZE):
    seed(0)
    t = torch()
    net = _unet(t.nn, t.nn.functional)
    g = t.Generator().manual_seed(123)
    randomize_bn(net, [t.randn(2, 3, size, size, generator=g)])
    return export(net, (t.randn(1, 3, size, size),), opset, dynamic, ["input"], ["mask"])


@register("unet", "fp32", "U-Net, 1x3x256x256, channels 16-32-64-128 (256 at the bottom), "
          "double 3x3 conv blocks, MaxPool 2, dilated 3x3 (2, 4) at the bottom, Resize "
          "nearest and bilinear x2, skip Concat, Sigmoid; opset 13")
def unet(dynamic):
    return unet_model(dynamic)
