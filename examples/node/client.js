#!/usr/bin/env node
// A Node.js client of ambit's gRPC service (package ambit.v1), written from
// src/ambit/proto/v1/ambit.proto alone: @grpc/grpc-js and @grpc/proto-loader, and
// google-proto-files for the google/rpc protos it imports (status.proto; error_details.proto
// for the details of an error). See docs/server.md, "Clients in other languages".
//
//   node client.js [--server HOST:PORT] [--deadline-ms N] equiv A B [--from DIALECT]
//   node client.js [--server HOST:PORT] [--deadline-ms N] entails --premise P [--premise P ...] --conclusion C [--from DIALECT]
//   node client.js [--server HOST:PORT] demo
//
// Each command prints one JSON object (demo: one per line); a call the server refuses prints
// {"error": {"code": "INVALID_ARGUMENT", "message": ..., "violations": [...], "info": ...}} and
// exits with status 3. DIALECT: fol, lisp, folio, nltk, tptp, prover9 (equiv: fol; entails: folio).
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const googleProtos = require('google-proto-files');

const PROTO = process.env.AMBIT_PROTO || path.join(__dirname, '..', '..', 'src', 'ambit', 'proto', 'v1', 'ambit.proto');
const LOADER = {keepCase: true, longs: String, enums: String, defaults: true, oneofs: true};

function load() {
  const definition = protoLoader.loadSync([PROTO, path.join(__dirname, 'details.proto')], {
    ...LOADER,
    // the folder that holds google/rpc/status.proto, and ambit.proto's own
    includeDirs: [path.dirname(googleProtos.getProtoPath()), path.dirname(PROTO)],
  });
  return {ambit: grpc.loadPackageDefinition(definition).ambit.v1, details: definition['ambit.node.Details']};
}

const {ambit, details} = load();
const FORMATS = {fol: 'LF_FORMAT_FOL', lisp: 'LF_FORMAT_LISP', folio: 'LF_FORMAT_FOLIO', nltk: 'LF_FORMAT_NLTK',
  tptp: 'LF_FORMAT_TPTP', prover9: 'LF_FORMAT_PROVER9'};

// --------------------------------------------------------------------------- errors

// A failed call's google.rpc.Status, from its `grpc-status-details-bin` trailer, with its
// details decoded: BadRequest's field violations, ErrorInfo's reason and metadata.
function errorOf(err) {
  const out = {code: grpc.status[err.code] || String(err.code), message: err.details || err.message};
  const bins = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (bins.length === 0) return out;
  const status = details.Status.requestDeserialize(bins[0]);
  for (const any of status.details) {
    const type = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
    if (type === 'google.rpc.BadRequest') {
      const bad = details.Status.responseDeserialize(any.value);
      out.violations = bad.field_violations.map((v) => ({field: v.field, description: v.description, reason: v.reason}));
    } else if (type === 'google.rpc.ErrorInfo') {
      const info = details.ErrorInfo.requestDeserialize(any.value);
      out.info = {reason: info.reason, domain: info.domain, metadata: info.metadata};
    } else if (type === 'google.rpc.RetryInfo') {
      out.retry = details.ErrorInfo.responseDeserialize(any.value).retry_delay;
    }
  }
  return out;
}

// --------------------------------------------------------------------------- results

// A model as the server reports it: CheckEquivalence's typed witness (`witness.model`: domain,
// constants, extensions, true atoms, functions), CheckEntailment's typed FiniteModel fields; the
// deprecated `witness_json` string only from a server older than the typed witness.
function modelOf(response) {
  const typed = [response.witness && response.witness.model, response.countermodel, response.model];
  for (const m of typed) {
    if (m && m.domain && m.domain.length) return plainModel(m);
  }
  const witness = response.witness_json ? JSON.parse(response.witness_json) : {};
  return witness.model || null;
}

// A typed Model as plain JSON: each extension's tuples as arrays of elements.
function plainModel(m) {
  const out = plain(m);
  if (m.extensions) {
    out.extensions = m.extensions.map((e) => ({predicate: e.predicate, arity: e.arity,
      tuples: e.tuples.map((t) => t.elements)}));
  }
  return out;
}

// A message as plain JSON: proto3 `optional` fields come with a synthetic oneof (`_premise_index`).
function plain(message) {
  return Object.fromEntries(Object.entries(message).filter(([k]) => !k.startsWith('_')));
}

// A proof's steps: CheckEntailment's typed ProofStep list, else the equivalence witness's typed
// proofs (a direction's Proof), else the deprecated witness_json's.
function proofOf(response) {
  if (response.proof && response.proof.length) return response.proof.map(plain);
  const w = response.witness;
  for (const p of w ? [w.proof_a_entails_b, w.proof_b_entails_a] : []) {
    if (p && p.steps && p.steps.length) return p.steps.map(plain);
  }
  const witness = response.witness_json ? JSON.parse(response.witness_json) : {};
  return witness.proof_a_entails_b || witness.proof_b_entails_a || null;
}

function equivalenceResult(r) {
  return {verdict: r.verdict, a_entails_b: r.a_entails_b, b_entails_a: r.b_entails_a,
    countermodel: modelOf(r), proof: proofOf(r), method: r.witness ? r.witness.method : null,
    direction: r.witness ? r.witness.direction : null,
    witness_json: r.witness_json ? JSON.parse(r.witness_json) : null};
}

function entailmentResult(r) {
  return {verdict: r.verdict, premises_used: r.premises_used, proof: proofOf(r),
    countermodel: r.countermodel && r.countermodel.domain.length ? r.countermodel : null,
    model: r.model && r.model.domain.length ? r.model : null, reason: r.reason || null,
    reading: r.reading_json ? JSON.parse(r.reading_json) : null};
}

// --------------------------------------------------------------------------- calls

function call(client, method, request, deadlineMs) {
  const options = deadlineMs ? {deadline: new Date(Date.now() + deadlineMs)} : {};
  return new Promise((resolve, reject) => {
    client[method](request, options, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

async function equiv(client, a, b, from, deadlineMs) {
  const r = await call(client, 'CheckEquivalence', {a, b, format: FORMATS[from || 'fol']}, deadlineMs);
  return equivalenceResult(r);
}

async function entails(client, premises, conclusion, from, deadlineMs) {
  const r = await call(client, 'CheckEntailment', {premises, conclusion, format: FORMATS[from || 'folio']},
      deadlineMs);
  return entailmentResult(r);
}

// The four calls docs/server.md shows, each as one JSON line: an equivalence with its
// countermodel, a malformed formula (INVALID_ARGUMENT with its BadRequest), a FOLIO entailment
// with its proof, a call whose deadline passes first.
async function demo(client) {
  const lines = [];
  const run = async (name, f) => {
    try {
      lines.push({demo: name, result: await f()});
    } catch (err) {
      lines.push({demo: name, error: errorOf(err)});
    }
  };
  await run('equivalence', () => equiv(client, '∀x (P(x) → Q(x))', '∀x (Q(x) → P(x))', 'folio'));
  await run('invalid_argument', () => equiv(client, '∀x (P(x) → ', 'P(a)', 'folio'));
  await run('entailment', () => entails(client, ['∀x (Dog(x) → Animal(x))', 'Dog(rex)'], 'Animal(rex)', 'folio'));
  // pigeonhole, 9 pigeons in 8 holes: far more Prolog than a deadline of 200 ms
  const pigeons = [];
  for (let p = 1; p <= 9; p++) pigeons.push([...Array(8).keys()].map((h) => `In(p${p}, h${h + 1})`).join(' ∨ '));
  for (let h = 1; h <= 8; h++) {
    for (let p = 1; p <= 9; p++) {
      for (let q = p + 1; q <= 9; q++) pigeons.push(`¬(In(p${p}, h${h}) ∧ In(p${q}, h${h}))`);
    }
  }
  await run('deadline', () => entails(client, pigeons, 'Done(now)', 'folio', 200));
  return lines;
}

// --------------------------------------------------------------------------- command line

function parseArgs(argv) {
  const opts = {server: process.env.AMBIT_SERVER || 'localhost:50051', premises: [], rest: []};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--server') opts.server = argv[++i];
    else if (a === '--deadline-ms') opts.deadlineMs = Number(argv[++i]);
    else if (a === '--from') opts.from = argv[++i];
    else if (a === '--premise') opts.premises.push(argv[++i]);
    else if (a === '--conclusion') opts.conclusion = argv[++i];
    else opts.rest.push(a);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [command, ...args] = opts.rest;
  const client = new ambit.AmbitService(opts.server, grpc.credentials.createInsecure());
  try {
    if (command === 'demo') {
      for (const line of await demo(client)) console.log(JSON.stringify(line));
    } else if (command === 'equiv' && args.length === 2) {
      console.log(JSON.stringify(await equiv(client, args[0], args[1], opts.from, opts.deadlineMs)));
    } else if (command === 'entails' && opts.conclusion !== undefined) {
      console.log(JSON.stringify(await entails(client, opts.premises, opts.conclusion, opts.from, opts.deadlineMs)));
    } else {
      console.error('usage: node client.js [--server HOST:PORT] [--deadline-ms N] ' +
          'equiv A B [--from DIALECT] | entails --premise P ... --conclusion C [--from DIALECT] | demo');
      process.exitCode = 2;
    }
  } catch (err) {
    if (err.code === undefined) throw err;
    console.log(JSON.stringify({error: errorOf(err)}));
    process.exitCode = 3;
  } finally {
    client.close();
  }
}

module.exports = {load, errorOf, modelOf, proofOf, equiv, entails, demo};

if (require.main === module) {
  main().catch((err) => {
    console.error(err.stack || String(err));
    process.exitCode = 1;
  });
}
