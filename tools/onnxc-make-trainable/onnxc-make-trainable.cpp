//===- onnxc-make-trainable.cpp - An inference model made trainable -------===//
//
//   onnxc-make-trainable MODEL.onnx -o TRAIN.onnx --output NAME
//       [--loss cross-entropy|mse] [--label NAME]
//       [--optimizer sgd|momentum|nesterov|adam|adagrad] [--lr R]
//       [--momentum M] [--beta1 B] [--beta2 B] [--epsilon E]
//       [--weight-decay W] [--trainable A,B,...] [--frozen A,B,...]
//
// compiler/Train/MakeTrainable.h does the work; docs/training.md describes
// the model it writes. Errors are one line, exit code 1.
//
//===----------------------------------------------------------------------===//

#include "compiler/Train/MakeTrainable.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace mlir::onnxc::train;

namespace {

const char *const kUsage =
    "usage: onnxc-make-trainable MODEL.onnx -o TRAIN.onnx --output NAME\n"
    "         [--loss cross-entropy|mse] [--label NAME]\n"
    "         [--optimizer sgd|momentum|nesterov|adam|adagrad] [--lr R]\n"
    "         [--momentum M] [--beta1 B] [--beta2 B] [--epsilon E]\n"
    "         [--weight-decay W] [--trainable A,B,...] [--frozen A,B,...]\n"
    "Writes MODEL with a TrainingInfoProto: the loss on output NAME (with\n"
    "the algorithm input LABEL: class indices for cross-entropy, targets\n"
    "for mse), one Gradient node over the trainable initializers (default:\n"
    "every float initializer used only as a differentiable input) and the\n"
    "optimizer. Defaults: cross-entropy, label 'label', sgd, lr 0.01,\n"
    "momentum 0.9, beta1 0.9, beta2 0.999, epsilon 1e-8, weight decay 0.\n";

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "onnxc-make-trainable: error: %s\n", msg.c_str());
  std::exit(1);
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

float parseFloat(const std::string &opt, const std::string &v) {
  char *end = nullptr;
  float f = std::strtof(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(f == f))
    die("option '" + opt + "' needs a number, got '" + v + "'");
  return f;
}

} // namespace

int main(int argc, char **argv) {
  TrainOptions o;
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        die("option '" + a + "' needs a value");
      return argv[++i];
    };
    if (a == "-o")
      output = next();
    else if (a == "--output")
      o.output = next();
    else if (a == "--loss")
      o.loss = next();
    else if (a == "--label")
      o.label = next();
    else if (a == "--optimizer")
      o.optimizer = next();
    else if (a == "--lr")
      o.lr = parseFloat(a, next());
    else if (a == "--momentum")
      o.momentum = parseFloat(a, next());
    else if (a == "--beta1")
      o.beta1 = parseFloat(a, next());
    else if (a == "--beta2")
      o.beta2 = parseFloat(a, next());
    else if (a == "--epsilon")
      o.epsilon = parseFloat(a, next());
    else if (a == "--weight-decay")
      o.weightDecay = parseFloat(a, next());
    else if (a == "--trainable")
      o.trainable = splitList(next());
    else if (a == "--frozen")
      o.frozen = splitList(next());
    else if (a.size() > 1 && a[0] == '-')
      die("unknown option '" + a + "' (see --help)");
    else if (input.empty())
      input = a;
    else
      die("more than one model given");
  }
  if (input.empty() || output.empty() || o.output.empty())
    die("a model, -o OUT and --output NAME are needed (see --help)");
  if (input == output)
    die("-o names the input model; write the trainable model elsewhere");
  std::ifstream in(input, std::ios::binary);
  if (!in)
    die("cannot read '" + input + "'");
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    die("'" + input + "' is not a binary ONNX model");
  std::string error;
  if (!makeTrainable(model, o, error))
    die(input + ": " + error);
  std::ofstream out(output, std::ios::binary);
  if (!out || !model.SerializeToOstream(&out))
    die("cannot write '" + output + "'");
  return 0;
}
