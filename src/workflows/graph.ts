// The graph of a workflow run (docs/workflows.md): its inputs, steps and outputs as nodes, the
// port bindings between them as edges, each step with its state; rendered as an SVG picture (a
// layered left-to-right layout) and as Mermaid text. Pure: no I/O. Ids come from users, so every
// text is escaped and nothing here throws on a reference to an unknown node.

export type StepState = 'pending' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'skipped' | 'reused';
export interface GraphNode {
  id: string;
  kind: 'input' | 'step' | 'output';
  label: string;
  job_type: string | null;
  state: StepState | null;
  progress: number | null;
}
export interface GraphEdge {
  from: string;
  to: string;
  label: string;
}
export interface RunGraph {
  run_id: string;
  /** The run's name: the title of the picture. */
  name: string;
  status: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const INPUT_REF = /^\$inputs\.([^.]+)$/;
const STEP_REF = /^\$steps\.(.+)\.outputs\.([^.]+)$/;

/** Builds the graph from a spec-like description: inputs and outputs become their own nodes (ids "input:NAME" / "output:NAME"), steps keep their ids. */
export function buildGraph(o: {
  runId: string;
  name: string;
  status: string;
  inputs: string[];
  steps: { id: string; job_type: string; state: StepState; progress: number | null; inputs: Record<string, string>; params: Record<string, unknown> }[];
  outputs: Record<string, string>;
}): RunGraph {
  const nodes: GraphNode[] = [];
  const kinds = new Map<string, GraphNode['kind']>();
  const add = (n: GraphNode) => {
    if (kinds.has(n.id)) return;
    kinds.set(n.id, n.kind);
    nodes.push(n);
  };
  for (const name of o.inputs) add({ id: `input:${name}`, kind: 'input', label: name, job_type: null, state: null, progress: null });
  for (const s of o.steps) add({ id: s.id, kind: 'step', label: s.id, job_type: s.job_type, state: s.state, progress: s.progress });
  for (const name of Object.keys(o.outputs)) add({ id: `output:${name}`, kind: 'output', label: name, job_type: null, state: null, progress: null });
  const edges: GraphEdge[] = [];
  // `port` is the binding's own name: the step's input port, the param, or null for an output.
  const link = (ref: unknown, to: string, port: string | null) => {
    if (typeof ref !== 'string') return;
    const inp = INPUT_REF.exec(ref);
    const st = STEP_REF.exec(ref);
    let from: string | undefined, label: string | undefined;
    if (inp && kinds.get(`input:${inp[1]}`) === 'input') [from, label] = [`input:${inp[1]}`, port ?? inp[1]!];
    else if (st && kinds.get(st[1]!) === 'step') [from, label] = [st[1]!, port === null || port === st[2] ? st[2]! : `${st[2]} -> ${port}`];
    if (from !== undefined && label !== undefined && from !== to) edges.push({ from, to, label });
  };
  for (const s of o.steps) {
    for (const [port, ref] of Object.entries(s.inputs ?? {})) link(ref, s.id, port);
    for (const [param, v] of Object.entries(s.params ?? {})) if (typeof v === 'string' && INPUT_REF.test(v)) link(v, s.id, param);
  }
  for (const [name, ref] of Object.entries(o.outputs)) link(ref, `output:${name}`, null);
  return { run_id: o.runId, name: o.name, status: o.status, nodes, edges };
}

type Style = { fill: string; stroke: string; text: string; dash?: true };
const STATES: StepState[] = ['pending', 'queued', 'running', 'completed', 'failed', 'cancelled', 'skipped', 'reused'];
const STYLES: Record<StepState | 'input' | 'output', Style> = {
  pending: { fill: '#e5e7eb', stroke: '#9ca3af', text: '#1f2937' },
  queued: { fill: '#dbeafe', stroke: '#60a5fa', text: '#1e3a8a' },
  running: { fill: '#93c5fd', stroke: '#2563eb', text: '#172554' },
  completed: { fill: '#bbf7d0', stroke: '#16a34a', text: '#14532d' },
  failed: { fill: '#fecaca', stroke: '#dc2626', text: '#7f1d1d' },
  cancelled: { fill: '#6b7280', stroke: '#374151', text: '#ffffff' },
  skipped: { fill: '#ffffff', stroke: '#9ca3af', text: '#4b5563', dash: true },
  reused: { fill: '#99f6e4', stroke: '#0d9488', text: '#134e4a' },
  input: { fill: '#fef3c7', stroke: '#d97706', text: '#78350f' },
  output: { fill: '#ede9fe', stroke: '#7c3aed', text: '#4c1d95' },
};
const stateOf = (n: GraphNode): StepState => (n.state !== null && STATES.includes(n.state) ? n.state : 'pending');
const styleOf = (n: GraphNode): Style => STYLES[n.kind === 'step' ? stateOf(n) : n.kind];
/** The picture's title: the run's name and status. */
const titleOf = (g: RunGraph) => `${g.name} · ${g.status}`;
const stateText = (n: GraphNode) => (n.state === 'running' && typeof n.progress === 'number' ? `running ${Math.round(clamp(n.progress, 0, 1) * 100)}%` : stateOf(n));

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : lo));
const r1 = (v: number) => Math.round(v * 10) / 10;
// Characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/FFFF) become spaces.
const clean = (s: string) => Array.from(String(s), (c) => (/^[\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]$/u.test(c) ? c : ' ')).join('');
const ENT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => clean(s).replace(/[&<>"']/g, (c) => ENT[c]!);
/** Cuts a text to `px` pixels at `cw` pixels a character, with an ellipsis. */
const fit = (s: string, px: number, cw: number) => {
  const cs = Array.from(clean(s));
  const max = Math.max(2, Math.floor(px / cw));
  return cs.length <= max ? cs.join('') : `${cs.slice(0, max - 1).join('')}…`;
};

// Estimated widths of a character at 13px bold, 11px and 10px; the grid: row pitch, node heights, margins.
const [BOLD, SMALL, TINY] = [8, 6.4, 5.9];
const [PITCH, STEP_H, IO_H, TOP, SIDE, MAX_W, MAX_LABEL] = [88, 60, 40, 50, 24, 300, 36];

function layout(g: RunGraph) {
  const n = g.nodes.length;
  const index = new Map(g.nodes.map((v, i) => [v.id, i]));
  const links = g.edges.flatMap((e) => {
    const [f, t] = [index.get(e.from), index.get(e.to)];
    return f === undefined || t === undefined || f === t ? [] : [{ e, f, t }];
  });
  const [preds, succs] = [g.nodes.map((): number[] => []), g.nodes.map((): number[] => [])];
  for (const { f, t } of links) {
    preds[t]!.push(f);
    succs[f]!.push(t);
  }
  // Column = longest path from the sources (Kahn's order); nodes on a cycle are placed after what they can see.
  const [indeg, depth, done] = [preds.map((p) => p.length), new Array<number>(n).fill(0), new Array<boolean>(n).fill(false)];
  const queue = [...indeg.keys()].filter((i) => indeg[i] === 0);
  let q = 0;
  const drain = () => {
    for (; q < queue.length; q++) {
      const i = queue[q]!;
      if (done[i]) continue;
      done[i] = true;
      for (const s of succs[i]!) {
        if (done[s]) continue;
        depth[s] = Math.max(depth[s]!, depth[i]! + 1);
        if (--indeg[s]! === 0) queue.push(s);
      }
    }
  };
  drain();
  for (let i = 0; i < n; i++) {
    if (done[i]) continue;
    queue.push(i);
    drain();
  }
  const cols: number[][] = Array.from({ length: depth.reduce((a, d) => Math.max(a, d), 0) + 1 }, () => []);
  depth.forEach((d, i) => cols[d]!.push(i));
  const rows = cols.reduce((a, c) => Math.max(a, c.length), 1);
  const nodeW = (v: GraphNode) => Math.max(v.label.length * BOLD, (v.job_type ?? '').length * SMALL, v.kind === 'step' ? stateText(v).length * SMALL : 0) + 28;
  const colW = cols.map((c) => clamp(Math.max(...c.map((i) => nodeW(g.nodes[i]!))), 130, MAX_W));
  const gapW = cols.map((_, c) => links.reduce((a, l) => (depth[l.f] === c ? Math.max(a, Math.min(l.e.label.length, MAX_LABEL) * TINY + 36) : a), 72));
  const colX: number[] = [];
  cols.forEach((_, c) => colX.push(c === 0 ? SIDE : colX[c - 1]! + colW[c - 1]! + gapW[c - 1]!));
  const colTop = (c: number) => TOP + ((rows - cols[c]!.length) * PITCH) / 2;
  // Rows: each column sorted by the mean height of its predecessors (then order of appearance), centred.
  const cy = new Array<number>(n).fill(0);
  cols.forEach((c, ci) => {
    const key = new Map(c.map((i) => [i, preds[i]!.filter((p) => depth[p]! < ci).reduce((a, p, _, ps) => a + cy[p]! / ps.length, 0) || Infinity]));
    if (ci > 0) c.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
    c.forEach((i, r) => (cy[i] = colTop(ci) + r * PITCH + PITCH / 2));
  });
  const boxes = g.nodes.map((v, i) => {
    const h = v.kind === 'step' ? STEP_H : IO_H;
    return { x: colX[depth[i]!]!, y: cy[i]! - h / 2, w: colW[depth[i]!]!, h, cy: cy[i]! };
  });
  // An edge that spans columns runs through the free channel between rows nearest its straight line.
  const routes = links.map(({ e, f, t }) => {
    const [a, b] = [boxes[f]!, boxes[t]!];
    const pts: [number, number][] = [[a.x + a.w, a.cy]];
    const [df, dt] = [depth[f]!, depth[t]!];
    for (let k = df + 1; k < dt; k++) {
      const want = a.cy + ((b.cy - a.cy) * (k - df)) / (dt - df);
      const chans = Array.from({ length: cols[k]!.length + 1 }, (_, r) => colTop(k) + r * PITCH);
      const y = chans.reduce((best, c) => (Math.abs(c - want) < Math.abs(best - want) ? c : best));
      pts.push([colX[k]!, y], [colX[k]! + colW[k]!, y]);
    }
    pts.push([b.x, b.cy]);
    return { e, t, col: df, pts };
  });
  // Arrows into one node are spread along its left side, in the order of where they come from.
  g.nodes.forEach((_, t) => {
    const ins = routes.filter((r) => r.t === t).sort((a, b) => a.pts.at(-2)![1] - b.pts.at(-2)![1]);
    const step = ins.length > 1 ? Math.min(12, (boxes[t]!.h - 16) / (ins.length - 1)) : 0;
    ins.forEach((r, k) => (r.pts.at(-1)![1] += (k - (ins.length - 1) / 2) * step));
  });
  const width = colX[cols.length - 1]! + colW[cols.length - 1]! + SIDE;
  return { boxes, routes, gapW, colX, colW, width, bottom: TOP + rows * PITCH };
}

export function graphSvg(g: RunGraph): string {
  const { boxes, routes, gapW, colX, colW, width: w0, bottom } = layout(g);
  const title = fit(titleOf(g), 1200, 8);
  const used = STATES.filter((s) => g.nodes.some((v) => v.kind === 'step' && stateOf(v) === s));
  const legend = [...(['input', 'output'] as const).filter((k) => g.nodes.some((v) => v.kind === k)), ...used];
  const legendW = legend.reduce((a, k) => a + k.length * SMALL + 34, SIDE * 2);
  const width = Math.ceil(Math.max(w0, title.length * 8.4 + SIDE * 2, legendW, 200));
  const height = bottom + (legend.length ? 48 : 12);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" role="img">`,
    `<defs><marker id="wf-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker></defs>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${SIDE}" y="30" font-size="15" font-weight="bold" fill="#0f172a">${esc(title)}</text>`,
  ];
  const labels: { x: number; y: number; col: number; text: string }[] = [];
  for (const { e, col, pts } of routes) {
    let d = `M${r1(pts[0]![0])},${r1(pts[0]![1])}`;
    for (let i = 1; i < pts.length; i++) {
      const [[ax, ay], [bx, by]] = [pts[i - 1]!, pts[i]!];
      const dx = Math.max(24, (bx - ax) / 2);
      d += i % 2 ? ` C${r1(ax + dx)},${r1(ay)} ${r1(bx - dx)},${r1(by)} ${r1(bx)},${r1(by)}` : ` L${r1(bx)},${r1(by)}`;
    }
    out.push(`<path d="${d}" fill="none" stroke="#64748b" stroke-width="1.5" marker-end="url(#wf-arrow)"/>`);
    if (e.label) labels.push({ x: colX[col]! + colW[col]! + gapW[col]! / 2, y: (pts[0]![1] + pts[1]![1]) / 2, col, text: fit(e.label, MAX_LABEL * TINY, TINY) });
  }
  // Labels in the gap after their source column, pushed apart where they would overlap.
  labels.sort((a, b) => a.col - b.col || a.y - b.y);
  labels.forEach((l, i) => {
    const prev = labels[i - 1];
    if (prev && prev.col === l.col && l.y < prev.y + 14) l.y = prev.y + 14;
    const lw = l.text.length * TINY + 8;
    out.push(`<rect x="${r1(l.x - lw / 2)}" y="${r1(l.y - 7)}" width="${r1(lw)}" height="14" rx="3" fill="#ffffff" fill-opacity="0.9"/>`);
    out.push(`<text x="${r1(l.x)}" y="${r1(l.y + 3.5)}" font-size="10" text-anchor="middle" fill="#475569">${esc(l.text)}</text>`);
  });
  g.nodes.forEach((v, i) => {
    const [b, s] = [boxes[i]!, styleOf(v)];
    const [cx, room] = [r1(b.x + b.w / 2), b.w - 16];
    const cls = v.kind === 'step' ? `step ${stateOf(v)}` : v.kind;
    out.push(`<g class="node ${cls}" data-id="${esc(v.id)}"><title>${esc(v.id)}</title>`);
    const dash = s.dash ? ' stroke-dasharray="5 3"' : '';
    const rx = v.kind === 'step' ? 8 : b.h / 2;
    out.push(`<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.w)}" height="${b.h}" rx="${rx}" fill="${s.fill}" stroke="${s.stroke}" stroke-width="1.5"${dash}/>`);
    if (v.kind === 'step') {
      out.push(`<text x="${cx}" y="${r1(b.cy - 11)}" font-size="13" font-weight="bold" text-anchor="middle" fill="${s.text}">${esc(fit(v.label, room, BOLD))}</text>`);
      out.push(`<text x="${cx}" y="${r1(b.cy + 4)}" font-size="11" text-anchor="middle" fill="${s.text}">${esc(fit(v.job_type ?? '', room, SMALL))}</text>`);
      out.push(`<text x="${cx}" y="${r1(b.cy + 18)}" font-size="11" font-style="italic" text-anchor="middle" fill="${s.text}">${esc(stateText(v))}</text>`);
      if (v.state === 'running' && typeof v.progress === 'number') {
        out.push(`<rect x="${r1(b.x + 8)}" y="${r1(b.y + b.h - 7)}" width="${r1(room)}" height="3" rx="1.5" fill="#ffffff" fill-opacity="0.6"/>`);
        out.push(`<rect x="${r1(b.x + 8)}" y="${r1(b.y + b.h - 7)}" width="${r1(room * clamp(v.progress, 0, 1))}" height="3" rx="1.5" fill="${s.stroke}"/>`);
      }
    } else {
      out.push(`<text x="${cx}" y="${r1(b.cy - 5)}" font-size="9" text-anchor="middle" fill="${s.text}">${v.kind}</text>`);
      out.push(`<text x="${cx}" y="${r1(b.cy + 10)}" font-size="12" font-weight="bold" text-anchor="middle" fill="${s.text}">${esc(fit(v.label, b.w - 24, 7.4))}</text>`);
    }
    out.push('</g>');
  });
  let lx = SIDE;
  for (const k of legend) {
    const [s, dash] = [STYLES[k], STYLES[k].dash ? ' stroke-dasharray="3 2"' : ''];
    out.push(`<rect x="${lx}" y="${bottom + 16}" width="16" height="14" rx="${k === 'input' || k === 'output' ? 7 : 3}" fill="${s.fill}" stroke="${s.stroke}"${dash}/>`);
    out.push(`<text x="${lx + 22}" y="${bottom + 27}" font-size="11" fill="#334155">${k}</text>`);
    lx += k.length * SMALL + 34;
  }
  return `${out.join('\n')}\n</svg>\n`;
}

// Mermaid labels: quoted, with entity codes for what would end or confuse them.
const MERMAID_ENT: Record<string, string> = { '#': '#35;', '"': '#quot;', '<': '#lt;', '>': '#gt;', '&': '#amp;', '|': '#124;' };
const mesc = (s: string) => clean(s).replace(/[#"<>&|]/g, (c) => MERMAID_ENT[c]!);
const mq = (s: string) => `"${mesc(s)}"`;

export function graphMermaid(g: RunGraph): string {
  const ids = new Map(g.nodes.map((v, i) => [v.id, `n${i}`]));
  // The title goes in Mermaid's front matter, a YAML document: a JSON string is a YAML double-quoted scalar.
  const lines = ['---', `title: ${JSON.stringify(clean(titleOf(g)).replace(/[\u2028\u2029]/g, ' '))}`, '---', 'flowchart LR'];
  g.nodes.forEach((v, i) => {
    if (v.kind === 'input') lines.push(`  n${i}([${mq(v.label)}])`);
    else if (v.kind === 'output') lines.push(`  n${i}[/${mq(v.label)}/]`);
    else lines.push(`  n${i}["${mesc(v.label)}<br/>${mesc(v.job_type ?? '')} · ${stateText(v)}"]`);
  });
  for (const e of g.edges) {
    const [a, b] = [ids.get(e.from), ids.get(e.to)];
    if (a !== undefined && b !== undefined) lines.push(e.label ? `  ${a} -->|${mq(e.label)}| ${b}` : `  ${a} --> ${b}`);
  }
  for (const [k, s] of Object.entries(STYLES))
    lines.push(`  classDef ${k === 'input' || k === 'output' ? `io_${k}` : k} fill:${s.fill},stroke:${s.stroke},color:${s.text}${s.dash ? ',stroke-dasharray:5 3' : ''}`);
  g.nodes.forEach((v, i) => lines.push(`  class n${i} ${v.kind === 'step' ? stateOf(v) : `io_${v.kind}`};`));
  return `${lines.join('\n')}\n`;
}
