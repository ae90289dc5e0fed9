"""An audio front end as speech models export it (keyword spotting, speaker
and sound classifiers that take raw audio): framing + STFT as one Conv1d
with fixed cos/sin weights (torch.stft has no ONNX export in torch 1.13,
so models carry their own basis), power spectrum, a MatMul with a mel
filterbank, Log(x + eps); then a small conv classifier. Written in torch
and exported at opset 13; every weight then moved into a Constant node
(scripted front ends keep their bases as constants)."""

import math

import numpy as np

from common import export, initializers_to_constants, randomize_bn, register, seed, torch

SR, N_FFT, HOP, MELS = 16000, 512, 160, 80


def stft_basis(n_fft):
    """[2 * (n_fft/2 + 1), 1, n_fft]: Hann-windowed cos rows, then -sin rows."""
    bins = n_fft // 2 + 1
    n = np.arange(n_fft)
    window = 0.5 - 0.5 * np.cos(2 * math.pi * n / n_fft)
    k = np.arange(bins)[:, None]
    cos = np.cos(2 * math.pi * k * n / n_fft) * window
    sin = -np.sin(2 * math.pi * k * n / n_fft) * window
    return np.concatenate([cos, sin])[:, None, :].astype(np.float32)


def mel_filterbank(sr, n_fft, mels, fmin=0.0, fmax=None):
    """HTK mel triangles, [mels, n_fft/2 + 1] (librosa's mel(htk=True),
    Slaney-normalized)."""
    fmax = fmax or sr / 2

    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10 ** (m / 2595.0) - 1.0)
    freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    pts = mel_to_hz(np.linspace(hz_to_mel(fmin), hz_to_mel(fmax), mels + 2))
    fb = np.zeros((mels, len(freqs)))
    for i in range(mels):
        lo, c, hi = pts[i], pts[i + 1], pts[i + 2]
        up = (freqs - lo) / (c - lo)
        down = (hi - freqs) / (hi - c)
        fb[i] = np.maximum(0, np.minimum(up, down)) * 2.0 / (hi - lo)
    return fb.astype(np.float32)


def _net():
    t = torch()
    nn = t.nn

    class MelClassifier(nn.Module):
        def __init__(self, classes=35):
            super().__init__()
            self.register_buffer("stft_basis", t.from_numpy(stft_basis(N_FFT)))
            self.register_buffer("mel_fb", t.from_numpy(mel_filterbank(SR, N_FFT, MELS)))

            def block(cin, cout):
                return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                        nn.ReLU(), nn.MaxPool2d(2)]
            self.features = nn.Sequential(*block(1, 32), *block(32, 64), *block(64, 128))
            self.fc = nn.Linear(128, classes)

        def forward(self, wav):
            x = wav.unsqueeze(1)
            x = t.nn.functional.pad(x, (N_FFT // 2, N_FFT // 2), mode="reflect")
            spec = t.nn.functional.conv1d(x, self.stft_basis, stride=HOP)
            bins = N_FFT // 2 + 1
            re, im = spec[:, :bins], spec[:, bins:]
            power = re * re + im * im
            mel = t.matmul(self.mel_fb, power)
            logmel = t.log(mel + 1e-6)
            y = self.features(logmel.unsqueeze(1))
            y = y.mean(dim=(2, 3))
            return self.fc(y)
    return MelClassifier()


@register("melspec", "fp32", "log-mel front end + conv classifier on 1 s of 16 kHz audio: "
          "reflect Pad, STFT as Conv1d (514 Hann cos/sin filters of 512, stride 160), "
          "Slice, power, MatMul with an 80-band mel filterbank, Log(x + 1e-6), three "
          "Conv3x3 + BN + ReLU + MaxPool blocks, mean, Linear; all weights Constant nodes; "
          "opset 13")
def melspec(dynamic):
    seed(0)
    t = torch()
    net = _net()
    g = t.Generator().manual_seed(123)
    randomize_bn(net, [0.1 * t.randn(4, SR, generator=g)])
    m = export(net, (0.1 * t.randn(1, SR),), 13, dynamic, ["waveform"], ["logits"])
    return initializers_to_constants(m)
