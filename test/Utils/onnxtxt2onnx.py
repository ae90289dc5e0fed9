#!/usr/bin/python3
"""Converts an ONNX text model to a binary .onnx, for importer tests.

usage: onnxtxt2onnx.py IN.onnxtxt OUT.onnx [--name INDEX=NAME]...

--name gives node INDEX (in file order) a name: libonnx 1.12's text parser
has no syntax for node names. Needs python3-onnx (/usr/bin/python3).
"""
import argparse
import sys

import onnx
import onnx.parser


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--name", action="append", default=[], metavar="INDEX=NAME")
    args = p.parse_args(argv)
    with open(args.input) as f:
        model = onnx.parser.parse_model(f.read())
    for spec in args.name:
        index, name = spec.split("=", 1)
        model.graph.node[int(index)].name = name
    onnx.save(model, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
