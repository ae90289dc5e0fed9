"""gradcheck cases: RNN, GRU, LSTM (RulesRecurrent.cpp: the cell unrolled
over the static sequence length, or a Scan of the cell when it is
symbolic, then the other rules). X, W, R, B and the initial states are all
differentiated."""
import numpy as np

from gradcheck import C, Case, In, X, normal

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


W = normal(0.5)


def rnn(name, op, seq=3, batch=2, inp=3, hidden=4, dirs=1, bias=True,
        init=False, lens=None, peep=False, nout=2, yout=(0, 1), layout=0,
        symseq=False, **attrs):
    g = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    xshape = [batch, seq, inp] if layout else [seq, batch, inp]
    sshape = [batch, dirs, hidden] if layout else [dirs, batch, hidden]
    ins = [X(xshape), X([dirs, g * hidden, inp], W),
           X([dirs, g * hidden, hidden], W),
           X([dirs, 2 * g * hidden], W) if bias else None,
           In(np.array(lens, np.int32)) if lens is not None else None,
           X(sshape) if init else None]
    if op == "LSTM":
        ins += [X(sshape) if init else None,
                X([dirs, 3 * hidden], W) if peep else None]
    while ins[-1] is None:
        ins.pop()
    attrs["hidden_size"] = hidden
    if layout:
        attrs["layout"] = 1
    sym = {0: {0: "N"} if layout else {1: "N"}}
    if symseq:
        # The sequence length symbolic too: the cell becomes a Scan body.
        sym[0][1 if layout else 0] = "T"
    if lens is not None:
        sym[4] = {0: "N"}
    if init:
        sym[5] = {0: "N"} if layout else {1: "N"}
        if op == "LSTM":
            sym[6] = sym[5]
    # Zero initial states come from ConstantOfShape (of X's batch dim).
    add(name, op, ins, attrs, nout=nout, yout=list(yout), sym=sym,
        rules=[op] if init else [op, "ConstantOfShape"])


for op in ["RNN", "GRU", "LSTM"]:
    lo = op.lower()
    n = 3 if op == "LSTM" else 2
    ys = (0, 1, 2) if op == "LSTM" else (0, 1)
    rnn(lo, op, nout=n, yout=ys)
    rnn(lo + "_no_bias_y_only", op, bias=False, nout=1, yout=(0,))
    rnn(lo + "_init", op, init=True, nout=n, yout=ys)
    rnn(lo + "_reverse", op, direction="reverse", init=True, nout=n, yout=ys)
    rnn(lo + "_bidirectional", op, dirs=2, direction="bidirectional",
        init=True, nout=n, yout=ys)
    rnn(lo + "_layout1", op, layout=1, init=True, nout=n, yout=ys)
    rnn(lo + "_seq_lens", op, lens=[3, 1], init=True, nout=n, yout=ys,
        direction="bidirectional", dirs=2)
    rnn(lo + "_clip", op, clip=0.8, nout=n, yout=ys)
    rnn(lo + "_hidden_only", op, nout=2, yout=(1,), seq=5)
rnn("gru_linear_before_reset", "GRU", linear_before_reset=1, init=True)
rnn("lstm_peepholes", "LSTM", peep=True, init=True, nout=3, yout=(0, 1, 2))
rnn("rnn_relu", "RNN", activations=["Relu"])
rnn("gru_activations", "GRU", activations=["HardSigmoid", "Softsign"],
    activation_alpha=[0.3], activation_beta=[0.4])
rnn("lstm_activations", "LSTM", activations=["Sigmoid", "ScaledTanh", "Tanh"],
    activation_alpha=[1.2], activation_beta=[0.7], nout=3, yout=(0, 1, 2))
# A symbolic sequence length: a Scan of the cell per direction (the step
# numbers scanned beside XW where sequence_lens masks).
for op in ["RNN", "GRU", "LSTM"]:
    lo = op.lower()
    n = 3 if op == "LSTM" else 2
    ys = (0, 1, 2) if op == "LSTM" else (0, 1)
    rnn(lo + "_sym_seq", op, symseq=True, init=True, nout=n, yout=ys)
    rnn(lo + "_sym_seq_bidir_lens", op, symseq=True, lens=[3, 1], init=True,
        nout=n, yout=ys, direction="bidirectional", dirs=2)
rnn("lstm_sym_seq_layout1_peep", "LSTM", symseq=True, layout=1, peep=True,
    nout=3, yout=(0, 1, 2))
rnn("gru_sym_seq_lbr_reverse", "GRU", symseq=True, linear_before_reset=1,
    direction="reverse")
rnn("lstm_long", "LSTM", seq=12, batch=3, inp=5, hidden=6, nout=3,
    yout=(1,))
