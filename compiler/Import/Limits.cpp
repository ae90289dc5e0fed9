//===- Limits.cpp - Bounds the importer puts on its input -----------------===//
//
// Each check runs without recursion, in time linear in the input: they exist
// to bound code that recurses or expands (see Limits.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/Limits.h"

#include "dialects/ONNX/IR/OpInfo.h"
#include "dialects/ONNX/Proto/ProtoBridge.h"

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <map>
#include <vector>

using namespace mlir::onnxc;
using namespace mlir::onnxc::import;

static_assert(kMaxNesting == proto::kMaxTypeNesting,
              "one nesting limit for graphs and types (docs/importer.md)");

//===----------------------------------------------------------------------===//
// Binary: message nesting from the wire format
//===----------------------------------------------------------------------===//

namespace {
/// Reads a base-128 varint; false at the end or on more than 10 bytes.
bool readVarint(const uint8_t *&p, const uint8_t *end, uint64_t &v) {
  v = 0;
  for (unsigned shift = 0; shift < 70 && p < end; shift += 7) {
    uint8_t b = *p++;
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80))
      return true;
  }
  return false;
}
} // namespace

bool import::checkBinaryNesting(llvm::StringRef data, std::string &error) {
  using google::protobuf::Descriptor;
  using google::protobuf::FieldDescriptor;
  const Descriptor *graphType = onnx::GraphProto::descriptor();
  const Descriptor *typeType = onnx::TypeProto::descriptor();
  // A message being walked: its type (null inside an unknown field or a
  // group), where it ends, and whether it is a group (which ends at its
  // end-group tag instead).
  struct Frame {
    const Descriptor *type;
    const uint8_t *end;
    bool group;
  };
  const uint8_t *p = reinterpret_cast<const uint8_t *>(data.data());
  std::vector<Frame> stack = {{onnx::ModelProto::descriptor(), p + data.size(), false}};
  unsigned graphs = 0, types = 0;
  auto push = [&](Frame f) {
    stack.push_back(f);
    graphs += f.type == graphType;
    types += f.type == typeType;
    if (graphs > kMaxNesting + 1) {
      error = "subgraphs are nested more than " + std::to_string(kMaxNesting) +
              " deep";
      return false;
    }
    if (types > kMaxNesting + 1) {
      error = "types are nested more than " + std::to_string(kMaxNesting) +
              " deep";
      return false;
    }
    if (stack.size() > kMaxMessageDepth) {
      error = "messages are nested more than " +
              std::to_string(kMaxMessageDepth) + " deep";
      return false;
    }
    return true;
  };
  auto pop = [&]() {
    graphs -= stack.back().type == graphType;
    types -= stack.back().type == typeType;
    stack.pop_back();
  };
  // Malformed input ends the walk without an error: protobuf reports it.
  while (!stack.empty()) {
    Frame &top = stack.back();
    if (!top.group && p == top.end) {
      pop();
      continue;
    }
    if (p >= top.end)
      return true;
    uint64_t tag;
    if (!readVarint(p, top.end, tag))
      return true;
    uint64_t field = tag >> 3, length;
    switch (tag & 7) {
    case 0: // varint
      if (!readVarint(p, top.end, length))
        return true;
      break;
    case 1: // fixed64
      if (top.end - p < 8)
        return true;
      p += 8;
      break;
    case 5: // fixed32
      if (top.end - p < 4)
        return true;
      p += 4;
      break;
    case 2: { // length-delimited: a message, bytes or a packed field
      if (!readVarint(p, top.end, length) || length > uint64_t(top.end - p))
        return true;
      const FieldDescriptor *fd =
          top.type && field <= INT32_MAX ? top.type->FindFieldByNumber((int)field)
                                         : nullptr;
      if (fd && fd->type() == FieldDescriptor::TYPE_MESSAGE) {
        if (!push({fd->message_type(), p + length, false}))
          return false;
      } else {
        p += length;
      }
      break;
    }
    case 3: // start group (ONNX has none; protobuf keeps them as unknown fields)
      if (!push({nullptr, top.end, true}))
        return false;
      break;
    case 4: // end group
      if (!top.group)
        return true;
      pop();
      break;
    default:
      return true;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Text: bracket nesting
//===----------------------------------------------------------------------===//

bool import::checkTextInput(llvm::StringRef data, std::string &error) {
  auto lineOf = [&](size_t offset) {
    return std::to_string(1 + std::count(data.begin(), data.begin() + offset, '\n'));
  };
  // libonnx's parser reads a C string: a NUL byte would end the model early.
  size_t nul = data.find('\0');
  if (nul != llvm::StringRef::npos) {
    error = "line " + lineOf(nul) + ": the text holds a NUL byte";
    return false;
  }
  unsigned depth = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    switch (data[i]) {
    case '#': // a comment, to the end of the line
      i = std::min(data.find('\n', i), data.size());
      break;
    case '"': // a string, to the next quote (libonnx 1.12 has no escapes)
      i = std::min(data.find('"', i + 1), data.size());
      break;
    case '{':
    case '(':
    case '[':
      if (++depth > kMaxTextBrackets) {
        error = "line " + lineOf(i) + ": brackets are nested more than " +
                std::to_string(kMaxTextBrackets) + " deep";
        return false;
      }
      break;
    case '}':
    case ')':
    case ']':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Node count after inlining
//===----------------------------------------------------------------------===//

uint64_t import::countExpandedNodes(const onnx::ModelProto &model,
                                    uint64_t cap) {
  using NodeList = google::protobuf::RepeatedPtrField<onnx::NodeProto>;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (int i = 0; i < model.functions_size(); ++i) {
    const onnx::FunctionProto &f = model.functions(i);
    index[{ONNX::canonicalDomain(f.domain()).str(), f.name()}] = i;
  }
  // A body's own nodes (in its subgraphs too) and the functions it calls,
  // once per call.
  struct Body {
    uint64_t local = 0;
    std::vector<size_t> calls;
  };
  auto scan = [&](const NodeList &nodes) {
    Body body;
    std::vector<const NodeList *> work = {&nodes};
    while (!work.empty()) {
      const NodeList *list = work.back();
      work.pop_back();
      for (const onnx::NodeProto &n : *list) {
        auto it = index.find({ONNX::canonicalDomain(n.domain()).str(), n.op_type()});
        if (it != index.end())
          body.calls.push_back(it->second);
        else
          ++body.local;
        for (const onnx::AttributeProto &a : n.attribute()) {
          if (a.has_g())
            work.push_back(&a.g().node());
          for (const onnx::GraphProto &g : a.graphs())
            work.push_back(&g.node());
        }
      }
    }
    return body;
  };
  std::vector<Body> bodies;
  for (const onnx::FunctionProto &f : model.functions())
    bodies.push_back(scan(f.node()));

  auto add = [cap](uint64_t a, uint64_t b) { return std::min(cap, a + b); };
  // Expanded size per function, in post-order of the call graph (an explicit
  // stack: call chains may be as long as the file allows). A call back into
  // a function still being counted is recursion and adds nothing.
  enum State : char { Unvisited, Active, Done };
  std::vector<State> state(bodies.size(), Unvisited);
  std::vector<uint64_t> size(bodies.size(), 0);
  auto expand = [&](size_t root) {
    if (state[root] != Unvisited)
      return;
    std::vector<std::pair<size_t, size_t>> stack = {{root, 0}};
    state[root] = Active;
    while (!stack.empty()) {
      size_t f = stack.back().first;
      size_t &next = stack.back().second;
      if (next < bodies[f].calls.size()) {
        size_t callee = bodies[f].calls[next++];
        if (state[callee] == Unvisited) {
          state[callee] = Active;
          stack.push_back({callee, 0});
        }
        continue;
      }
      uint64_t total = std::min(cap, bodies[f].local);
      for (size_t callee : bodies[f].calls)
        if (state[callee] == Done)
          total = add(total, size[callee]);
      size[f] = total;
      state[f] = Done;
      stack.pop_back();
    }
  };
  Body main = scan(model.graph().node());
  uint64_t total = std::min(cap, main.local);
  for (size_t callee : main.calls) {
    expand(callee);
    total = add(total, size[callee]);
  }
  return total;
}
