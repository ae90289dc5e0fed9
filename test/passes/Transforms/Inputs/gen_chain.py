#!/usr/bin/python3
"""gen_chain.py N: a function of N elementwise generics in a chain (each
adds 1.0 to its input, at location "n<i>"), for onnxc-fuse-elementwise's
bound on fused loops."""
import sys

n = int(sys.argv[1])
print("#map = affine_map<(d0) -> (d0)>")
print("func.func @chain(%x: tensor<2xf32>) -> tensor<2xf32> {")
print("  %one = arith.constant 1.0 : f32")
prev = "%x"
for i in range(n):
    print("  %%e%d = tensor.empty() : tensor<2xf32>" % i)
    print("  %%v%d = linalg.generic {indexing_maps = [#map, #map], "
          "iterator_types = [\"parallel\"]} ins(%s : tensor<2xf32>) "
          "outs(%%e%d : tensor<2xf32>) {" % (i, prev, i))
    print("  ^bb0(%in: f32, %out: f32):")
    print("    %%a%d = arith.addf %%in, %%one : f32" % i)
    print("    linalg.yield %%a%d : f32" % i)
    print("  } -> tensor<2xf32> loc(\"n%d\")" % i)
    prev = "%%v%d" % i
print("  return %s : tensor<2xf32>" % prev)
print("}")
