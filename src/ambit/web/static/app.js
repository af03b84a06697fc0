// ambit's pages: one script, no framework, no build step. Every text that comes from a user or a
// model is put into the page with textContent (never as HTML), and no link is made from data.
"use strict";

const $ = (id) => document.getElementById(id);
let TOKEN = sessionStorage.getItem("ambit-token") || "";
let INFO = null;
let EXAMPLES = null;

// -- building the DOM safely ---------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "data") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = String(dv);
    else if (["title", "id", "type", "colspan", "start"].includes(k)) node.setAttribute(k, String(v));
    else if (k === "onclick") node.addEventListener("click", v);
    else throw new Error("attribute not allowed: " + k);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
function show(target, ...nodes) { target.replaceChildren(...nodes.flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false)); }
function fmtP(p) { return (typeof p === "number") ? p.toFixed(3) : "–"; }
function card(cls, ...children) { return el("div", { class: "card " + (cls || "") }, ...children); }
function verdictNode(v) { return el("span", { class: "verdict v-" + v, data: { verdict: v } }, v); }
function json(value) { return el("pre", { class: "lf" }, JSON.stringify(value, null, 2)); }

// -- the API --------------------------------------------------------------------------------
async function api(path, body) {
  const headers = {};
  if (TOKEN) headers["Authorization"] = "Bearer " + TOKEN;
  const opts = { headers, credentials: "same-origin" };
  if (body !== undefined) { opts.method = "POST"; headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  if (r.status === 401) $("token-box").hidden = false;
  const data = await r.json().catch(() => ({ error: { code: "HTTP_" + r.status, message: "the server's answer was not JSON (HTTP " + r.status + ")" } }));
  if (!r.ok) throw data;
  return data;
}
async function blobUrl(path) {
  const r = await fetch(path, { headers: TOKEN ? { Authorization: "Bearer " + TOKEN } : {} });
  if (!r.ok) throw { error: { code: "HTTP_" + r.status, message: "HTTP " + r.status } };
  return URL.createObjectURL(await r.blob());
}
// every error of the API is {"error": {code, message, field, position?, hint?}} (docs/web.md)
function errorOf(e) {
  const x = e && e.error;
  if (x && typeof x === "object") return x;
  return { message: x ? String(x) : String(e) };
}
function errorCard(e) {
  const x = errorOf(e);
  return card("error", el("strong", {}, "Error: "), (x.field ? x.field + ": " : "") + x.message,
    x.position != null ? el("div", { class: "hint" }, "at character " + x.position) : null,
    x.hint ? el("div", { class: "hint" }, x.hint) : null,
    x.code ? el("div", { class: "hint" }, "code: " + x.code) : null);
}
async function run(target, work) {
  show(target, el("p", { class: "busy" }, "working…"));
  try { show(target, await work()); } catch (e) { show(target, errorCard(e)); }
}

// -- models, countermodels and situations -----------------------------------------------------
function parseAtom(atom) {
  const m = /^([^(]+)\((.*)\)$/.exec(atom.trim());
  return m ? { pred: m[1].trim(), args: m[2].split(",").map((s) => s.trim()) } : { pred: atom.trim(), args: [] };
}
function drawModel(model, title) {
  // model: {domain, constants, true_atoms} (an engine model) or {domain, constants, facts} (a situation)
  const domain = model.domain || [];
  const atoms = (model.true_atoms || model.facts || []).map(parseAtom);
  const names = {};
  for (const [c, d] of Object.entries(model.constants || {})) (names[d] = names[d] || []).push(c);
  const unary = [...new Set(atoms.filter((a) => a.args.length === 1).map((a) => a.pred))].sort();
  const holds = new Set(atoms.filter((a) => a.args.length === 1).map((a) => a.pred + "\u0000" + a.args[0]));
  const head = el("tr", {}, el("th", {}, "entity"), el("th", {}, "named"), unary.map((p) => el("th", {}, p)));
  const rows = domain.map((d) => el("tr", { data: { entity: d } }, el("td", { class: "entity" }, d),
    el("td", {}, (names[d] || []).join(", ")), unary.map((p) => el("td", {}, holds.has(p + "\u0000" + d) ? "✓" : ""))));
  const rel = atoms.filter((a) => a.args.length !== 1);
  const parts = [el("div", { class: "hint" }, title || "model"), el("table", { class: "entities" }, head, rows)];
  if (rel.length) {
    parts.push(el("table", { class: "relations" }, el("tr", {}, el("th", {}, "relation"), el("th", {}, "holds of")),
      rel.map((a) => el("tr", {}, el("td", {}, a.pred), el("td", {}, a.args.join(" → "))))));
    parts.push(diagram(domain, rel.filter((a) => a.args.length === 2), names));
  }
  return el("div", { class: "model" }, parts);
}
function svg(tag, attrs, text) {
  const n = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}
function diagram(domain, binary, names) {
  // entities on a circle, one arrow per binary fact
  const W = 420, H = 260, R = 95, cx = W / 2, cy = H / 2, pos = {};
  domain.forEach((d, i) => { const t = 2 * Math.PI * i / Math.max(domain.length, 1) - Math.PI / 2; pos[d] = [cx + R * Math.cos(t), cy + R * Math.sin(t)]; });
  const g = svg("svg", { class: "diagram", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" });
  const defs = svg("defs", {}); const mk = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 20, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" });
  mk.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#5b7fd1" })); defs.appendChild(mk);
  const loop = svg("marker", { id: "loop", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" });
  loop.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#5b7fd1" })); defs.appendChild(loop); g.appendChild(defs);
  for (const a of binary) {
    const [p, q] = [pos[a.args[0]], pos[a.args[1]]];
    if (!p || !q) continue;
    if (p === q) {  // a fact about one entity and itself: a loop above it
      g.appendChild(svg("path", { d: `M${p[0] - 8},${p[1] - 12} C${p[0] - 30},${p[1] - 55} ${p[0] + 30},${p[1] - 55} ${p[0] + 8},${p[1] - 12}`, fill: "none", stroke: "#5b7fd1", "marker-end": "url(#loop)" }));
      g.appendChild(svg("text", { x: p[0], y: p[1] - 46, fill: "#24304a", "text-anchor": "middle" }, a.pred));
      continue;
    }
    g.appendChild(svg("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: "#5b7fd1", "marker-end": "url(#arrow)" }));
    g.appendChild(svg("text", { x: (p[0] + q[0]) / 2, y: (p[1] + q[1]) / 2 - 3, fill: "#24304a", "text-anchor": "middle" }, a.pred));
  }
  for (const d of domain) {
    const [x, y] = pos[d];
    g.appendChild(svg("circle", { cx: x, cy: y, r: 14, fill: "#eef1f6", stroke: "#24304a" }));
    g.appendChild(svg("text", { x, y: y + 4, "text-anchor": "middle" }, d));
    if (names[d]) g.appendChild(svg("text", { x, y: y + 28, "text-anchor": "middle", fill: "#667085" }, names[d].join(", ")));
  }
  return g;
}
function proofSteps(proof) {
  return el("ol", { class: "steps" }, proof.map((s) => el("li", {},
    [s.step, s.literal ? "on " + s.literal : null, s.literals ? "clause " + s.literals.join(" ∨ ") : null,
      s.clause !== undefined ? "#" + s.clause : null, s.from !== undefined ? "(from " + (typeof s.from === "number" ? "premise " + (s.from + 1) : s.from) + ")" : null]
      .filter(Boolean).join(" "))));
}

// -- Formulas ---------------------------------------------------------------------------------
function showEquivalence(r) {
  const dir = (x) => x === true ? "yes" : x === false ? "no" : "undecided";
  const out = [card("", verdictNode(r.verdict), r.checked ? "" : el("span", { class: "hint" }, " (not checked by ambit)"),
    el("table", {}, el("tr", {}, el("th", {}, "A ⊨ B"), el("td", { data: { dir: "ab" } }, dir(r.a_entails_b))),
      el("tr", {}, el("th", {}, "B ⊨ A"), el("td", { data: { dir: "ba" } }, dir(r.b_entails_a))),
      el("tr", {}, el("th", {}, "A as read"), el("td", { class: "lf" }, r.canonical_a)),
      el("tr", {}, el("th", {}, "B as read"), el("td", { class: "lf" }, r.canonical_b))))];
  const w = r.witness || {};
  if (w.model) out.push(card("countermodel", el("strong", {}, "Countermodel, checked: "),
    `${w.true_in_model || "?"} is true and ${w.false_in_model || "?"} is false here`, drawModel(w.model, "countermodel")));
  if (Array.isArray(w.proof)) out.push(card("", el("strong", {}, "Proof steps"), proofSteps(w.proof)));
  out.push(el("details", {}, el("summary", {}, "witness (JSON)"), json(w)));
  return out;
}

// -- Premises and a conclusion ------------------------------------------------------------------
function showDecision(r) {
  const used = new Set(r.premises_used || []);
  const out = [card("", verdictNode(r.verdict), r.reason ? el("span", { class: "hint" }, " (" + r.reason + ")") : null,
    el("ol", { class: "premises" }, r.premises.map((p, i) => el("li", { class: used.has(i) ? "used lf" : "lf", data: { used: used.has(i) } }, p))),
    el("div", {}, "Conclusion: ", el("span", { class: "lf" }, r.conclusion)),
    el("div", { class: "hint" }, used.size ? "Highlighted: the premises the proof uses." : ""))];
  if (Array.isArray(r.proof)) out.push(card("", el("strong", {}, "Proof steps"), proofSteps(r.proof)));
  if (r.countermodel) out.push(card("countermodel", el("strong", {}, "Countermodel (premises true, conclusion false)"), drawModel(r.countermodel, "countermodel")));
  if (r.model) out.push(card("", el("strong", {}, "A model of the premises"), drawModel(r.model, "model")));
  return out;
}

// -- RADD -------------------------------------------------------------------------------------------
function showRadd(r) {
  const res = r.result, inst = r.instance;
  const used = new Set(Object.values(res.interpretations).flatMap((v) => v.premises));
  const premises = [...(inst.spans || []).map((s) => [s.premise, `${s.relation}: ${s.start} to ${s.end}`]),
    ...(inst.properties || []).map((p) => [p.premise, `${p.relation}: ${p.value_text}`]),
    [inst.regularity_premise, "(regularity) " + inst.regularity]].sort((a, b) => a[0] - b[0]);
  const interp = Object.values(res.interpretations).map((v) => card("interpretation",
    el("strong", {}, v.reading.replace("_", " ")), " — ", v.relation, ": ", verdictNode(v.verdict),
    el("div", { class: "hint" }, "premises: " + v.premises.join(", ")),
    el("ul", { class: "derivation" }, v.derivation.map((d) => el("li", {}, d))),
    v.findings.length ? el("div", { class: "hint" }, v.findings.join("; ")) : null));
  return [card("", el("div", {}, "Status: ", el("strong", { data: { status: res.status } }, res.status),
    res.answer_option ? ` — option ${res.answer_option} (${res.answer_label}) is the one consistent with the regularity` : ""),
    el("div", {}, "Regularity: ", el("em", {}, inst.regularity))),
  interp,
  card("", el("strong", {}, "Premises (used ones highlighted)"),
    el("ul", {}, premises.map(([n, t]) => el("li", { class: used.has("P" + n) ? "used" : "" }, `(P${n}) ${t}`)))),
  el("details", {}, el("summary", {}, "Prolog derivation"), el("ol", {}, res.derivation.map((d) => el("li", {}, d))))];
}

// -- Sentence ------------------------------------------------------------------------------------
function showExplanation(x) {
  const out = [card("", el("strong", {}, "Readings"), el("ol", { start: 0 }, x.readings.map((r) =>
    el("li", {}, el("span", { class: "paraphrase" }, r.paraphrase), el("div", { class: "lf hint" }, r.lf)))))];
  x.situations.forEach((s, i) => out.push(card("situation", el("strong", {}, `Situation ${i + 1}: `),
    `reading ${s.holds} true, reading ${s.fails} false. `, s.description, drawModel(s, "situation"))));
  if (x.question) out.push(card("question", el("strong", {}, "Clarification: "), el("span", { class: "question" }, x.question.text),
    x.question.yes_no ? el("div", {}, x.question.yes_no) : null));
  if (x.note) out.push(el("p", { class: "hint" }, x.note));
  return out;
}
function showDistribution(d) {
  const cands = el("table", { class: "candidates" }, el("tr", {}, el("th", {}, "p"), el("th", {}, ""), el("th", {}, "reading"), el("th", {}, "class")),
    d.candidates.map((c) => { const bar = el("div", { class: "bar" }); bar.style.width = Math.round(180 * c.probability) + "px";
      return el("tr", { class: "reading" }, el("td", {}, fmtP(c.probability)), el("td", {}, el("div", { class: "barbox" }, bar)),
        el("td", { class: "lf" }, c.text, c.parse_status !== "ok" ? el("div", { class: "hint" }, c.parse_status + (c.parse_error ? ": " + c.parse_error : "")) : null),
        el("td", {}, c.meaning_class >= 0 ? "#" + c.meaning_class : "–")); }));
  const classes = d.classes.map((k, i) => card("class", el("strong", {}, `Meaning #${i}: mass ${fmtP(k.probability_mass)}`),
    k.paraphrase ? el("div", { class: "paraphrase" }, k.paraphrase) : null,
    el("div", { class: "lf" }, "fol: " + (k.notations.fol || "")), el("div", { class: "lf" }, "lisp: " + (k.notations.lisp || "")),
    el("div", { class: "hint" }, `${k.member_indices.length} reading(s) grouped as equivalent`),
    k.member_indices.length > 1 ? el("button", { class: "small", type: "button", onclick: (ev) => proveClass(ev, d, k) }, "show the proof") : null));
  const out = [card("", el("strong", {}, "Parse distribution"), el("span", { class: "hint" }, " model " + d.model_id), cands), classes];
  if (d.explanation) out.push(showExplanation(d.explanation));
  return out;
}
async function proveClass(ev, d, k) {
  const [a, b] = k.member_indices.slice(0, 2).map((i) => d.candidates[i].text);
  const box = el("div", {}); ev.target.replaceWith(box);
  await run(box, async () => showEquivalence(await api("/api/equivalence", { a, b, format: d.format })));
}

// -- Runs ---------------------------------------------------------------------------------------
let RUN_STAMP = null;
function mdNodes(md) {
  // the summaries' Markdown, drawn with DOM nodes: headings, pipe tables, lists, paragraphs
  const out = []; let table = null;
  const inline = (t) => t.split(/(\*\*[^*]+\*\*|`[^`]+`)/).map((p) => p.startsWith("**") ? el("strong", {}, p.slice(2, -2)) : p.startsWith("`") ? el("code", {}, p.slice(1, -1)) : p);
  for (const line of md.split("\n")) {
    if (/^\s*\|/.test(line)) {
      const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
      if (!table) { table = el("table", {}); out.push(table); table.appendChild(el("tr", {}, cells.map((c) => el("th", {}, inline(c))))); }
      else table.appendChild(el("tr", {}, cells.map((c) => el("td", {}, inline(c)))));
      continue;
    }
    table = null;
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    if (h) out.push(el("h" + Math.min(h[1].length + 2, 6), {}, inline(h[2])));
    else if (/^\s*[-*]\s+/.test(line)) out.push(el("div", { class: "li" }, "• ", inline(line.replace(/^\s*[-*]\s+/, ""))));
    else if (line.trim()) out.push(el("p", {}, inline(line)));
  }
  return out;
}
async function loadRuns() {
  const sel = $("runs-select");
  const data = await api("/api/runs");
  const keep = sel.value;
  const label = (r) => `${r.root} : ${r.folder}${r.in_progress ? " (in progress)" : ""}`;
  show(sel, data.runs.map((r) => el("option", { data: { id: r.id } }, label(r))));
  [...sel.options].forEach((o, i) => { o.value = data.runs[i].id; });
  if (keep) sel.value = keep;
  const other = $("runs-compare"), keepOther = other.value;
  show(other, el("option", {}, "(none)"), data.runs.map((r) => el("option", { data: { id: r.id } }, label(r))));
  [...other.options].forEach((o, i) => { o.value = i ? data.runs[i - 1].id : ""; });
  other.value = keepOther;
  if (data.runs.length) await loadRun();
  else show($("runs-summary"), card("", "No run found under the folders given with --runs."));
}
function summaryNodes(s) {
  return [el("p", { class: "hint" }, s.run.root + " : " + s.run.folder),
    s.run.in_progress ? el("p", { class: "progress" }, "in progress: refreshed as results come in") : null,
    s.markdown ? card("summary", mdNodes(s.markdown)) : s.summary ? card("summary", json(s.summary)) : card("", "no summary yet")];
}
async function loadCompare() {
  const id = $("runs-compare").value, box = $("runs-compare-summary");
  box.hidden = !id;
  if (id) await run(box, async () => summaryNodes(await api("/api/runs/summary?run=" + encodeURIComponent(id))));
}
async function loadRun() {
  const id = $("runs-select").value;
  await run($("runs-summary"), async () => {
    const s = await api("/api/runs/summary?run=" + encodeURIComponent(id));
    RUN_STAMP = s.run.updated;
    const figs = $("runs-figures"); figs.replaceChildren();
    for (const f of s.run.figures) {
      const img = el("img", { title: f }); img.alt = f;
      figs.appendChild(el("figure", {}, img, el("figcaption", { class: "hint" }, f)));
      blobUrl(`/api/runs/file?run=${encodeURIComponent(id)}&name=${encodeURIComponent(f)}`).then((u) => { img.src = u; }).catch(() => {});
    }
    return summaryNodes(s);
  });
  await loadCompare();
  await loadItems(true);
}
function tokensNode(tokens) {
  return el("div", {}, tokens.map((t) => { const n = el("span", { class: "tok", title: "p = " + fmtP(t.prob) }, t.text || "␣");
    const p = Math.max(0, Math.min(1, t.prob)); n.style.background = `hsl(${Math.round(120 * p)}, 70%, 85%)`; return n; }));
}
function goldNode(g) {
  if (g && typeof g === "object") return el("div", {}, Object.entries(g).map(([k, v]) => el("div", { class: "lf" }, k + ": " + v)));
  return el("span", { class: "lf" }, g === null || g === undefined ? "–" : String(g));
}
async function loadItems(resetFilters) {
  const id = $("runs-select").value;
  const q = new URLSearchParams({ run: id, type: $("items-type").value, ratio: $("items-ratio").value, outcome: $("items-outcome").value, q: $("items-q").value, limit: "200" });
  await run($("items-list"), async () => {
    const d = await api("/api/runs/items?" + q.toString());
    if (resetFilters) {
      for (const [sel, vals] of [[$("items-type"), d.types], [$("items-ratio"), d.ratios]]) {
        const keep = sel.value; show(sel, el("option", {}, "all"), vals.map((v) => el("option", {}, String(v))));
        sel.options[0].value = ""; sel.value = keep;
      }
    }
    $("items-count").textContent = `${d.matched} of ${d.total} items` + (d.matched > d.items.length ? ` (first ${d.items.length} shown)` : "")
      + (d.complete === false ? ` (reading the run: ${Math.round(100 * d.indexed_bytes / Math.max(1, d.bytes))}%)` : "");
    if (d.complete === false) setTimeout(() => { if ($("runs-select").value === id) loadItems(false); }, 1000);
    return el("table", { class: "items" }, el("tr", {}, ["id", "type", "ratio", "input", "prediction", "gold", "right?", "verdict", "token confidences"].map((h) => el("th", {}, h))),
      d.items.map((it) => el("tr", { class: "item", data: { id: it.id } },
        el("td", {}, el("button", { class: "small", type: "button", onclick: () => showRecord(id, it.id) }, it.id)),
        el("td", {}, it.type ?? "–"), el("td", {}, it.ratio ?? "–"), el("td", {}, it.text),
        el("td", { class: "lf" }, it.prediction ?? "–", it.probability != null ? el("div", { class: "hint" }, "p " + fmtP(it.probability)) : null),
        el("td", {}, goldNode(it.gold)),
        el("td", { class: it.correct === true ? "right" : it.correct === false ? "wrong" : "" }, it.correct === true ? "right" : it.correct === false ? "wrong" : "–"),
        el("td", {}, it.verdict == null ? "–" : typeof it.verdict === "object" ? el("details", {}, el("summary", {}, summaryOf(it.verdict)), json(it.verdict)) : String(it.verdict)),
        el("td", {}, tokensNode(it.tokens)))));
  });
}
function summaryOf(v) {
  if (v.status) return v.status + (v.answer_label ? ": " + v.answer_label : "");
  if ("LF0" in v) return `LF0 ${v.LF0 ?? "–"} / LF1 ${v.LF1 ?? "–"}`;
  return v.verdict || "details";
}
async function showRecord(run, id) {
  const box = $("items-record"); box.hidden = false;
  try { box.textContent = JSON.stringify(await api(`/api/runs/record?run=${encodeURIComponent(run)}&id=${encodeURIComponent(id)}`), null, 2); }
  catch (e) { box.textContent = "Error: " + errorOf(e).message; }
}
async function refreshRuns() {
  if ($("page-runs").hidden || !$("runs-refresh").checked || !$("runs-select").value) return;
  try {
    const data = await api("/api/runs");
    const r = data.runs.find((x) => x.id === $("runs-select").value);
    if (r && (r.in_progress || r.updated !== RUN_STAMP) && r.updated !== RUN_STAMP) await loadRun();
  } catch (e) { /* the next tick tries again */ }
}

// -- wiring --------------------------------------------------------------------------------------
function fillSelect(sel, values, chosen) {
  show(sel, values.map((v) => el("option", {}, v)));
  sel.value = chosen;
}
function route() {
  const page = (location.hash || "#formulas").slice(1);
  for (const s of document.querySelectorAll("section.page")) s.hidden = s.id !== "page-" + page;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.page === page);
  if (page === "runs" && INFO && INFO.runs && !$("runs-select").options.length) loadRuns().catch((e) => show($("runs-summary"), errorCard(e)));
}
async function init() {
  $("token-save").addEventListener("click", () => { TOKEN = $("token").value; sessionStorage.setItem("ambit-token", TOKEN); location.reload(); });
  try { INFO = await api("/api/info"); } catch (e) { show($("footer"), errorCard(e)); return; }
  $("server-info").textContent = `ambit ${INFO.version} · ${INFO.model_loaded ? "model " + (INFO.model.model_id || "") : "no model"}`;
  fillSelect($("formulas-format"), INFO.formats, "fol");
  fillSelect($("story-format"), INFO.story_formats, "folio");
  $("sentence-model").textContent = INFO.model_loaded ? "" : "This server has no model (--no-model): the parse distribution needs one; Explain works on readings you give.";
  $("sentence-parse").disabled = !INFO.model_loaded;
  if (!INFO.runs) {
    for (const id of ["runs-form", "items-form"]) $(id).hidden = true;
    show($("runs-summary"), card("", "Start the server with --runs DIR (an ambit eval --out folder) to browse a run here."));
  }
  EXAMPLES = await api("/api/examples");
  EXAMPLES.amp.forEach((x, i) => { const o = el("option", {}, `${x.type}: ${x.surface}`); o.value = String(i); $("sentence-example").appendChild(o); });
  EXAMPLES.stories.forEach((x, i) => { const o = el("option", {}, x.name); o.value = String(i); $("story-example").appendChild(o); });
  EXAMPLES.radd.forEach((x, i) => { const o = el("option", {}, x.name); o.value = String(i); $("radd-example").appendChild(o); });
  $("sentence-example").addEventListener("change", (e) => { const x = EXAMPLES.amp[e.target.value]; if (!x) return;
    $("sentence-utterance").value = x.surface; $("sentence-lfs").value = x.lf0 + "\n" + x.lf1; $("sentence-format").value = "fol"; });
  $("story-example").addEventListener("change", (e) => { const x = EXAMPLES.stories[e.target.value]; if (!x) return;
    $("story-format").value = x.format; $("story-premises").value = x.premises.join("\n"); $("story-conclusion").value = x.conclusion; });
  $("radd-example").addEventListener("change", (e) => { const x = EXAMPLES.radd[e.target.value]; if (x) $("radd-text").value = x.text; });
  $("formulas-form").addEventListener("submit", (e) => { e.preventDefault();
    run($("formulas-result"), async () => showEquivalence(await api("/api/equivalence", { a: $("formulas-a").value, b: $("formulas-b").value, format: $("formulas-format").value }))); });
  $("story-form").addEventListener("submit", (e) => { e.preventDefault();
    run($("story-result"), async () => showDecision(await api("/api/entailment", { premises: $("story-premises").value, conclusion: $("story-conclusion").value, format: $("story-format").value }))); });
  $("radd-form").addEventListener("submit", (e) => { e.preventDefault();
    run($("radd-result"), async () => showRadd(await api("/api/radd", { text: $("radd-text").value }))); });
  $("sentence-form").addEventListener("submit", (e) => { e.preventDefault();
    run($("sentence-result"), async () => { const d = await api("/api/parse", { utterance: $("sentence-utterance").value, format: $("sentence-format").value, k: Number($("sentence-k").value), explain: $("sentence-explain-too").checked });
      $("sentence-lfs").value = d.classes.map((k) => k.canonical).join("\n"); return showDistribution(d); }); });
  $("sentence-explain").addEventListener("click", () => run($("sentence-result"), async () =>
    showExplanation(await api("/api/explain", { utterance: $("sentence-utterance").value, lfs: $("sentence-lfs").value, format: $("sentence-format").value }))));
  $("runs-select").addEventListener("change", () => loadRun());
  $("runs-compare").addEventListener("change", () => loadCompare());
  $("items-form").addEventListener("submit", (e) => { e.preventDefault(); loadItems(false); });
  window.addEventListener("hashchange", route);
  route();
  setInterval(refreshRuns, 4000);
  document.body.dataset.ready = "true";
}
document.addEventListener("DOMContentLoaded", () => init().catch((e) => {
  show($("footer"), errorCard(e)); document.body.dataset.ready = "error"; }));
