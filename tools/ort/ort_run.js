#!/usr/bin/env node
// ort_run.js - run an ONNX model with ONNX Runtime (the oracle and the bench
// baseline of onnxc; see docs/ort.md).
//
//   node ort_run.js MODEL [--inputs DIR] [--save DIR] [--threads N]
//                   [--runs N] [--warmup N] [--opt-level L] [--log-level N]
//                   [--allow-spinning 0|1]
//
// Same file convention as onnxc-run: DIR/input_<i>.pb are ONNX TensorProtos
// in graph-input order (initializers are not inputs); --save writes
// output_<k>.pb in graph-output order, so that
//   onnxc-run LIB.so --inputs DIR --expect SAVED --rtol 1e-3 --atol 1e-5
// compares onnxc with ORT directly.
//
// Session: intraOpNumThreads = --threads (default 1), interOpNumThreads 1,
// sequential execution, graphOptimizationLevel --opt-level (default 'all'),
// and session.intra_op.allow_spinning = --allow-spinning (default 0: on 2
// cores, spinning makes two threads slower than one).
//
// --runs N times N calls of session.run (after --warmup N, default 0) and
// prints, like onnxc-run:
//   STEM: N runs (W warm-up): median X.XXX ms, min Y.YYY ms
//   cpu: median Z.ZZZ ms a run
// (the median of the timed runs' CPU times, user + system, of the whole
// process: a run that the garbage collector of Node.js stops is one run
// of N, as in the wall-time median). Only session.run is timed (not
// reading inputs or creating the session).
//
// ORT is looked up in $ONNXC_ORT_MODULES (a node_modules folder), then in
// build/ort/node_modules of this checkout (tools/ort/install.sh puts it
// there), then by Node's usual resolution.
//
// Exit codes: 0 ok, 2 a usage, I/O or ORT error (one line on stderr).
'use strict';

const fs = require('fs');
const path = require('path');

const USAGE = `usage: node ort_run.js MODEL [--inputs DIR] [--save DIR] [--threads N]
                  [--runs N] [--warmup N] [--opt-level L] [--log-level N]
                  [--allow-spinning 0|1]
  --inputs DIR   input_0.pb, input_1.pb, ... in graph-input order
  --save DIR     write output_0.pb, ... there
  --threads N    intra-op threads (default 1)
  --runs N, --warmup N  time N runs of session.run after N warm-up runs
                 (wall median and min, and the median CPU time)
  --opt-level L  disabled, basic, extended, layout or all (default all)
  --log-level N  ORT's log severity, 0 (verbose) to 4 (fatal); default 3
  --allow-spinning 0|1  session.intra_op.allow_spinning (default 0)
  --memory       print the resident set before creating the session and its
                 peak (VmHWM) after the runs, in KB
`;

function die(msg) {
  process.stderr.write(`ort_run: error: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { model: null, inputs: null, save: null, threads: 1, runs: 0,
              warmup: 0, optLevel: 'all', logLevel: 3, spinning: 0 };
  const counts = { '--threads': 'threads', '--runs': 'runs',
                   '--warmup': 'warmup', '--log-level': 'logLevel',
                   '--allow-spinning': 'spinning' };
  for (let i = 0; i < argv.length; ++i) {
    let a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    let value;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq >= 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) die(`option '${a}' needs a value`);
      return argv[++i];
    };
    if (a === '--memory') { o.memory = true; continue; }
    if (a === '--inputs') o.inputs = next();
    else if (a === '--save') o.save = next();
    else if (a === '--opt-level') {
      o.optLevel = next();
      if (!['disabled', 'basic', 'extended', 'layout', 'all'].includes(o.optLevel))
        die(`unknown --opt-level '${o.optLevel}'`);
    } else if (a in counts) {
      const v = next();
      if (!/^[0-9]+$/.test(v))
        die(`option '${a}' needs a non-negative integer, got '${v}'`);
      o[counts[a]] = Number(v);
    } else if (a.length > 1 && a[0] === '-') die(`unknown option '${a}' (see --help)`);
    else if (o.model === null) o.model = a;
    else die(`more than one model given ('${o.model}', '${a}')`);
  }
  if (o.model === null) die('no model given (see --help)');
  if (o.threads < 1) die('--threads must be at least 1');
  if (o.logLevel > 4) die('--log-level must be 0 to 4');
  if (o.spinning > 1) die('--allow-spinning must be 0 or 1');
  return o;
}

function loadOrt() {
  const candidates = [];
  if (process.env.ONNXC_ORT_MODULES)
    candidates.push(path.join(process.env.ONNXC_ORT_MODULES, 'onnxruntime-node'));
  candidates.push(path.join(__dirname, '..', '..', 'build', 'ort', 'node_modules',
                            'onnxruntime-node'));
  for (const c of candidates)
    if (fs.existsSync(path.join(c, 'package.json'))) return require(c);
  try {
    return require('onnxruntime-node');
  } catch (e) {
    die('onnxruntime-node not found: run tools/ort/install.sh ' +
        '(or set ONNXC_ORT_MODULES to its node_modules folder)');
  }
}

// --- TensorProto, the few fields we need ------------------------------------
// onnx.proto: dims=1 (int64, packed or not), data_type=2, float_data=4,
// int32_data=5, string_data=6 (bytes, UTF-8 here), int64_data=7, name=8,
// raw_data=9, double_data=10, uint64_data=11. Typed fields hold what raw_data would (float16 and the
// small integer types widened into int32_data, as the ONNX spec says).

// ONNX data type -> [ORT tensor type, typed array, byte size, typed field].
const DTYPES = {
  1: ['float32', Float32Array, 4, 'float'],
  2: ['uint8', Uint8Array, 1, 'int32'],
  3: ['int8', Int8Array, 1, 'int32'],
  4: ['uint16', Uint16Array, 2, 'int32'],
  5: ['int16', Int16Array, 2, 'int32'],
  6: ['int32', Int32Array, 4, 'int32'],
  7: ['int64', BigInt64Array, 8, 'int64'],
  9: ['bool', Uint8Array, 1, 'int32'],
  10: ['float16', Uint16Array, 2, 'int32'],
  11: ['float64', Float64Array, 8, 'double'],
  12: ['uint32', Uint32Array, 4, 'uint64'],
  13: ['uint64', BigUint64Array, 8, 'uint64'],
};
const ORT_TO_ONNX = {};
for (const [k, v] of Object.entries(DTYPES)) ORT_TO_ONNX[v[0]] = Number(k);

class Reader {
  constructor(buf) { this.buf = buf; this.pos = 0; }
  done() { return this.pos >= this.buf.length; }
  varint() {  // as BigInt: int64 dims and data need all 64 bits
    let result = 0n, shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('varint too long');
    }
  }
  bytes(n) {
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.bytes(8);
    else if (wire === 2) this.bytes(Number(this.varint()));
    else if (wire === 5) this.bytes(4);
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

// Copies bytes into a fresh, aligned buffer (subarray offsets may be odd).
function aligned(bytes) {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy.buffer;
}

function readTensor(file) {
  const r = new Reader(fs.readFileSync(file));
  const dims = [], ints = [], floats = [], doubles = [];
  let dataType = 0, raw = null, name = '';
  const strings = [];
  // Repeated scalars come packed (wire type 2) or one by one.
  const repeated = (wire, one, out) => {
    if (wire !== 2) { out.push(one()); return; }
    const length = Number(r.varint());
    const end = r.pos + length;
    while (r.pos < end) out.push(one());
  };
  const f32 = () => new DataView(aligned(r.bytes(4))).getFloat32(0, true);
  const f64 = () => new DataView(aligned(r.bytes(8))).getFloat64(0, true);
  while (!r.done()) {
    const key = Number(r.varint()), field = key >>> 3, wire = key & 7;
    if (field === 1) repeated(wire, () => BigInt.asIntN(64, r.varint()), dims);
    else if (field === 2 && wire === 0) dataType = Number(r.varint());
    else if (field === 4) repeated(wire, f32, floats);
    else if (field === 5) repeated(wire, () => BigInt.asIntN(32, r.varint()), ints);
    else if (field === 6 && wire === 2)
      strings.push(Buffer.from(r.bytes(Number(r.varint()))).toString('utf8'));
    else if (field === 7) repeated(wire, () => BigInt.asIntN(64, r.varint()), ints);
    else if (field === 8 && wire === 2) name = r.bytes(Number(r.varint())).toString();
    else if (field === 9 && wire === 2) raw = r.bytes(Number(r.varint()));
    else if (field === 10) repeated(wire, f64, doubles);
    else if (field === 11) repeated(wire, () => r.varint(), ints);
    else if (field === 12 || field === 13) throw new Error('external data is not supported');
    else r.skip(wire);
  }
  if (dataType === 8) {
    const shape = dims.map(Number);
    const count = shape.reduce((a, b) => a * b, 1);
    if (strings.length !== count)
      throw new Error(`${strings.length} strings, shape [${shape}] needs ${count}`);
    return { name, type: 'string', shape, data: strings };
  }
  const info = DTYPES[dataType];
  if (!info) throw new Error(`data type ${dataType} is not supported`);
  const [type, Arr, size, typed] = info;
  const shape = dims.map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  let data;
  if (raw !== null) {
    if (raw.length !== count * size)
      throw new Error(`raw_data has ${raw.length} bytes, shape [${shape}] needs ${count * size}`);
    data = new Arr(aligned(raw));  // little-endian host, as raw_data
  } else {
    const src = typed === 'float' ? floats : typed === 'double' ? doubles : ints;
    if (src.length !== count)
      throw new Error(`${src.length} values, shape [${shape}] needs ${count}`);
    data = new Arr(count);
    for (let i = 0; i < count; ++i) {
      const v = src[i];
      if (Arr === BigInt64Array) data[i] = BigInt.asIntN(64, v);
      else if (Arr === BigUint64Array) data[i] = BigInt.asUintN(64, v);
      else if (typeof v === 'bigint') data[i] = Number(v);  // wraps like a C cast
      else data[i] = v;
    }
  }
  if (type === 'bool') data = Uint8Array.from(data, (v) => (v ? 1 : 0));
  return { name, type, shape, data };
}

function varintBytes(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function lengthDelimited(field, payload) {
  return Buffer.concat([varintBytes((field << 3) | 2), varintBytes(payload.length), payload]);
}

// dims (packed), data_type, name, raw_data: what onnxc-run writes too.
function writeTensor(file, name, tensor) {
  if (tensor.type === 'string') {
    // dims, data_type 8, name, string_data.
    const parts = [];
    if (tensor.dims.length)
      parts.push(lengthDelimited(1, Buffer.concat(tensor.dims.map(varintBytes))));
    parts.push(varintBytes((2 << 3) | 0), varintBytes(8));
    parts.push(lengthDelimited(8, Buffer.from(name, 'utf8')));
    for (const str of tensor.data) parts.push(lengthDelimited(6, Buffer.from(str, 'utf8')));
    fs.writeFileSync(file, Buffer.concat(parts));
    return;
  }
  const dataType = ORT_TO_ONNX[tensor.type];
  if (!dataType) throw new Error(`output '${name}' has type ${tensor.type}, not supported`);
  const data = tensor.data;
  const raw = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const parts = [];
  if (tensor.dims.length)
    parts.push(lengthDelimited(1, Buffer.concat(tensor.dims.map(varintBytes))));
  parts.push(varintBytes((2 << 3) | 0), varintBytes(dataType));
  parts.push(lengthDelimited(8, Buffer.from(name, 'utf8')));
  parts.push(lengthDelimited(9, raw));
  fs.writeFileSync(file, Buffer.concat(parts));
}

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// A "Vm...:" figure of /proc/self/status in KiB, or -1.
function procStatusKB(key) {
  try {
    const m = fs.readFileSync('/proc/self/status', 'utf8').match(
        new RegExp(`^${key}:\\s*(\\d+)`, 'm'));
    return m ? Number(m[1]) : -1;
  } catch (e) {
    return -1;
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const ort = loadOrt();

  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: o.optLevel,
    logSeverityLevel: o.logLevel,
    // Flattened by the binding into the config entry
    // "session.intra_op.allow_spinning" (--log-level 0 shows it among the
    // session's config_options).
    extra: { session: { intra_op: { allow_spinning: String(o.spinning) } } },
  };
  // The process before the model: what --memory subtracts.
  const rssBeforeKB = procStatusKB('VmRSS');
  let session;
  try {
    session = await ort.InferenceSession.create(o.model, options);
  } catch (e) {
    die(`cannot load '${o.model}': ${e.message}`);
  }

  const feeds = {};
  const names = session.inputNames;
  for (let i = 0; i < names.length; ++i) {
    if (o.inputs === null) die(`the model has ${names.length} input(s): give --inputs`);
    const file = path.join(o.inputs, `input_${i}.pb`);
    if (!fs.existsSync(file)) die(`'${file}' is missing (input '${names[i]}')`);
    let t;
    try {
      t = readTensor(file);
    } catch (e) {
      die(`'${file}': ${e.message}`);
    }
    feeds[names[i]] = new ort.Tensor(t.type, t.data, t.shape);
  }
  if (o.inputs !== null && fs.existsSync(path.join(o.inputs, `input_${names.length}.pb`)))
    die(`'${o.inputs}' has input_${names.length}.pb but the model has ${names.length} input(s)`);

  const run = async () => {
    try {
      return await session.run(feeds);
    } catch (e) {
      die(`run failed: ${e.message}`);
    }
  };
  let results;
  if (o.runs > 0) {
    for (let i = 0; i < o.warmup; ++i) results = await run();
    const ms = [], cpu = [];
    for (let i = 0; i < o.runs; ++i) {
      const cpu0 = process.cpuUsage();
      const start = process.hrtime.bigint();
      results = await run();
      ms.push(Number(process.hrtime.bigint() - start) / 1e6);
      const c = process.cpuUsage(cpu0);
      cpu.push((c.user + c.system) / 1e3);
    }
    ms.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const stem = path.basename(o.model).replace(/\.[^.]*$/, '');
    console.log(`${stem}: ${o.runs} runs (${o.warmup} warm-up): ` +
                `median ${median(ms).toFixed(3)} ms, min ${ms[0].toFixed(3)} ms`);
    console.log(`cpu: median ${median(cpu).toFixed(3)} ms a run`);
  } else {
    results = await run();
  }

  if (o.memory)
    console.log(`memory: ${rssBeforeKB} KB before loading the model, ` +
                `peak ${procStatusKB('VmHWM')} KB`);

  session.outputNames.forEach((name, k) => {
    const t = results[name];
    console.log(`output ${k} '${name}': ${t.type}[${t.dims.join(',')}]`);
  });
  if (o.save !== null) {
    fs.mkdirSync(o.save, { recursive: true });
    session.outputNames.forEach((name, k) => {
      try {
        writeTensor(path.join(o.save, `output_${k}.pb`), name, results[name]);
      } catch (e) {
        die(e.message);
      }
    });
  }
  await session.release();
}

main().catch((e) => die(e.stack || String(e)));
