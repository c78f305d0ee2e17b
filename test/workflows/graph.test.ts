// The run graph (docs/workflows.md): nodes and edges built from a spec-like description, the
// SVG's layered layout, escaping and state colours, and the Mermaid text. Pure functions, no
// server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph, graphMermaid, graphSvg, type StepState } from '../../src/workflows/graph.js';

type Step = Parameters<typeof buildGraph>[0]['steps'][number];
const step = (id: string, job_type: string, inputs: Record<string, string>, extra: Partial<Step> = {}): Step => ({
  id,
  job_type,
  state: 'pending',
  progress: null,
  inputs,
  params: {},
  ...extra,
});

// A triage DAG: filter fans out to cluster and props; depict reads cluster's assignments.
const TRIAGE = {
  runId: 'run_1',
  name: 'Library triage',
  status: 'running',
  inputs: ['library', 'max_mw'],
  steps: [
    step('filter', 'filter', { molecules: '$inputs.library' }, { state: 'completed', params: { expression: 'mw <= 500', max_mw: '$inputs.max_mw' } }),
    step('cluster', 'cluster', { molecules: '$steps.filter.outputs.molecules' }, { state: 'running', progress: 0.4, params: { cutoff: 0.4 } }),
    step('props', 'properties', { molecules: '$steps.filter.outputs.molecules' }, { state: 'failed' }),
    step('depict', 'depict', { molecules: '$steps.cluster.outputs.assignments' }),
  ],
  outputs: { clusters: '$steps.cluster.outputs.clusters', drawings: '$steps.depict.outputs.depictions' },
};

/** Each node's rect as drawn: data-id (escaped as in the SVG) -> x, y, fill, the whole group. */
function nodeBoxes(svg: string) {
  const out = new Map<string, { x: number; y: number; fill: string; group: string }>();
  for (const m of svg.matchAll(/<g class="node[^"]*" data-id="([^"]*)">[\s\S]*?<\/g>/g)) {
    const r = /<rect x="([\d.]+)" y="([\d.]+)"[^>]* fill="(#[0-9a-f]{6})"/.exec(m[0])!;
    out.set(m[1]!, { x: Number(r[1]), y: Number(r[2]), fill: r[3]!, group: m[0] });
  }
  return out;
}

/** A strict-enough XML well-formedness check: tags balance, attributes are quoted, every & is an entity. */
function assertWellFormed(xml: string) {
  const ENTITY = '&(?:amp|lt|gt|quot|apos|#\\d+|#x[0-9a-fA-F]+);';
  const TEXT = new RegExp(`^(?:[^<>&]|${ENTITY})*$`);
  const TAG = new RegExp(`^<(/?)([A-Za-z][\\w:.-]*)((?:\\s+[\\w:.-]+="(?:[^"<>&]|${ENTITY})*")*)\\s*(/?)>$`);
  const stack: string[] = [];
  let roots = 0;
  let last = 0;
  for (const m of xml.matchAll(/<[^>]*>/g)) {
    const text = xml.slice(last, m.index);
    assert.ok(TEXT.test(text), `bad text: ${JSON.stringify(text)}`);
    if (stack.length === 0) assert.equal(text.trim(), '', 'text outside the root');
    last = m.index + m[0].length;
    const t = TAG.exec(m[0]);
    assert.ok(t, `bad tag: ${m[0]}`);
    const [, close, name, , selfClose] = t;
    if (close) assert.equal(stack.pop(), name, `unbalanced </${name}>`);
    else if (!selfClose) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) roots++;
  }
  assert.equal(xml.slice(last).trim(), '');
  assert.deepEqual([stack, roots], [[], 1]);
}

describe('workflow run graph', () => {
  it('buildGraph: inputs, steps and outputs as nodes; port bindings and $inputs params as edges', () => {
    const g = buildGraph(TRIAGE);
    assert.deepEqual([g.run_id, g.name, g.status], ['run_1', 'Library triage', 'running']);
    assert.deepEqual(
      g.nodes.map((n) => [n.id, n.kind, n.label, n.job_type, n.state]),
      [
        ['input:library', 'input', 'library', null, null],
        ['input:max_mw', 'input', 'max_mw', null, null],
        ['filter', 'step', 'filter', 'filter', 'completed'],
        ['cluster', 'step', 'cluster', 'cluster', 'running'],
        ['props', 'step', 'props', 'properties', 'failed'],
        ['depict', 'step', 'depict', 'depict', 'pending'],
        ['output:clusters', 'output', 'clusters', null, null],
        ['output:drawings', 'output', 'drawings', null, null],
      ],
    );
    assert.equal(g.nodes[3]!.progress, 0.4);
    assert.deepEqual(g.edges, [
      { from: 'input:library', to: 'filter', label: 'molecules' },
      { from: 'input:max_mw', to: 'filter', label: 'max_mw' },
      { from: 'filter', to: 'cluster', label: 'molecules' },
      { from: 'filter', to: 'props', label: 'molecules' },
      { from: 'cluster', to: 'depict', label: 'assignments -> molecules' },
      { from: 'cluster', to: 'output:clusters', label: 'clusters' },
      { from: 'depict', to: 'output:drawings', label: 'depictions' },
    ]);
  });

  it('ignores references to unknown inputs, steps and outputs, malformed ones and self-references', () => {
    const g = buildGraph({
      runId: 'r',
      name: 'r',
      status: 'pending',
      inputs: ['a'],
      steps: [
        step(
          's1',
          'filter',
          { molecules: '$inputs.ghost', other: '$steps.nope.outputs.x', junk: 'not a ref', self: '$steps.s1.outputs.molecules' },
          { params: { p: '$inputs.ghost', q: 3 } },
        ),
        step('s2', 'depict', { molecules: '$steps.s1.outputs.molecules' }, { params: { n: '$inputs.a' } }),
      ],
      outputs: { o: '$steps.missing.outputs.y', p: '$inputs.a' },
    });
    assert.deepEqual(
      g.edges.map((e) => `${e.from}>${e.to}:${e.label}`),
      ['s1>s2:molecules', 'input:a>s2:n', 'input:a>output:p:a'],
    );
    assert.equal(g.nodes.length, 5);
    assert.doesNotThrow(() => graphSvg(g));
    assert.doesNotThrow(() => graphMermaid(g));
  });

  it('SVG: columns follow the longest path from the sources; parallel steps share an x, not a y', () => {
    const svg = graphSvg(buildGraph(TRIAGE));
    const b = nodeBoxes(svg);
    assert.equal(b.size, 8);
    const x = (id: string) => b.get(id)!.x;
    assert.equal(x('input:library'), x('input:max_mw'));
    assert.ok(x('input:library') < x('filter') && x('filter') < x('cluster') && x('cluster') < x('depict') && x('depict') < x('output:drawings'));
    assert.equal(x('cluster'), x('props'));
    assert.notEqual(b.get('cluster')!.y, b.get('props')!.y);
    assert.equal(x('output:clusters'), x('depict'));
    // Seven edges, each a path ending in the one arrow marker, each with its label.
    assert.equal((svg.match(/<path d="M[^"]*" fill="none"[^>]*marker-end="url\(#wf-arrow\)"/g) ?? []).length, 7);
    assert.equal((svg.match(/<marker /g) ?? []).length, 1);
    for (const label of ['molecules', 'max_mw', 'assignments -&gt; molecules', 'clusters', 'depictions']) assert.ok(svg.includes(`>${label}</text>`), label);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="(\d+)" height="(\d+)" viewBox="0 0 \1 \2"/);
    assert.ok(svg.includes('>Library triage · running</text>'), 'titled with the run name, not its id');
    assert.ok(!svg.includes('run_1'));
    assert.ok(b.get('cluster')!.group.includes('>running 40%</text>'));
    assert.ok(b.get('filter')!.group.includes('font-weight="bold" text-anchor="middle" fill="#14532d">filter</text>'));
    assertWellFormed(svg);
    assert.equal(graphSvg(buildGraph(TRIAGE)), svg, 'deterministic');
  });

  it('escapes hostile ids, labels and run ids in SVG and Mermaid', () => {
    const bad = `a<b&"c'`;
    const g = buildGraph({
      runId: '<script>alert(1)</script>',
      name: '<img src=x onerror=alert(2)>"\n---\ntitle: x',
      status: 'x"y',
      inputs: ['in&put'],
      steps: [step(bad, 'fil|ter', { 'p"o<rt': '$inputs.in&put' }), step('next', 'depict', { molecules: `$steps.${bad}.outputs.m>o` })],
      outputs: { 'o]ut': `$steps.next.outputs.depictions` },
    });
    assert.equal(g.edges.length, 3);
    const svg = graphSvg(g);
    assertWellFormed(svg);
    assert.ok(!svg.includes('<script>') && !svg.includes('a<b') && !svg.includes(`"c'`));
    assert.ok(svg.includes('data-id="a&lt;b&amp;&quot;c&#39;"'));
    assert.ok(!svg.includes('<img') && svg.includes('&lt;img src=x onerror=alert(2)&gt;&quot; --- title: x · x&quot;y</text>'), 'the title: the run name, escaped');
    assert.ok(svg.includes('>m&gt;o -&gt; molecules</text>'));
    const mm = graphMermaid(g);
    // The title is one YAML double-quoted line of the front matter: the name cannot end it.
    assert.deepEqual(mm.split('\n').slice(0, 4), ['---', 'title: "<img src=x onerror=alert(2)>\\" --- title: x · x\\"y"', '---', 'flowchart LR']);
    assert.ok(mm.includes('  n1["a#lt;b#amp;#quot;c\'<br/>fil#124;ter · pending"]'), mm);
    assert.ok(mm.includes('  n0 -->|"p#quot;o#lt;rt"| n1'), mm);
    for (const line of mm.split('\n').slice(4, -1)) assert.match(line, /^ {2}(n\d+[([]|n\d+ -->|classDef |class n\d+ )/);
  });

  it('SVG: every state has its own fill colour; skipped is dashed, running shows its progress', () => {
    const fills: Record<StepState, string> = {
      pending: '#e5e7eb',
      queued: '#dbeafe',
      running: '#93c5fd',
      completed: '#bbf7d0',
      failed: '#fecaca',
      cancelled: '#6b7280',
      skipped: '#ffffff',
      reused: '#99f6e4',
    };
    const states = Object.keys(fills) as StepState[];
    const g = buildGraph({
      runId: 'r',
      name: 'r',
      status: 'running',
      inputs: ['lib'],
      steps: states.map((s) => step(`s_${s}`, 'filter', { molecules: '$inputs.lib' }, { state: s, progress: s === 'running' ? 0.25 : null })),
      outputs: { out: '$steps.s_completed.outputs.molecules' },
    });
    const b = nodeBoxes(graphSvg(g));
    for (const s of states) {
      const n = b.get(`s_${s}`)!;
      assert.equal(n.fill, fills[s], s);
      assert.ok(n.group.startsWith(`<g class="node step ${s}"`), s);
      assert.equal(n.group.includes('stroke-dasharray'), s === 'skipped', s);
    }
    assert.ok(b.get('s_running')!.group.includes('>running 25%</text>'));
    assert.equal(new Set([...b.values()].map((n) => n.fill)).size, 10, 'inputs and outputs have colours of their own');
    // Parallel steps: one column, one row each.
    assert.equal(new Set(states.map((s) => b.get(`s_${s}`)!.x)).size, 1);
    assert.equal(new Set(states.map((s) => b.get(`s_${s}`)!.y)).size, 8);
  });

  it('Mermaid: flowchart LR, safe ids, one line per edge, one class line per node', () => {
    const g = buildGraph(TRIAGE);
    const mm = graphMermaid(g);
    const lines = mm.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 4), ['---', 'title: "Library triage · running"', '---', 'flowchart LR']);
    assert.ok(lines.includes('  n0(["library"])'));
    assert.ok(lines.includes('  n2["filter<br/>filter · completed"]'));
    assert.ok(lines.includes('  n3["cluster<br/>cluster · running 40%"]'));
    assert.ok(lines.includes('  n6[/"clusters"/]'));
    const edges = lines.filter((l) => l.includes('-->'));
    assert.equal(edges.length, g.edges.length);
    assert.ok(edges.includes('  n3 -->|"assignments -#gt; molecules"| n5'));
    for (const e of edges) assert.match(e, /^ {2}n\d+ -->\|"[^"]*"\| n\d+$/);
    const classes = lines.filter((l) => /^ {2}class /.test(l));
    assert.deepEqual(
      classes.filter((l) => !l.includes('io_')),
      ['  class n2 completed;', '  class n3 running;', '  class n4 failed;', '  class n5 pending;'],
    );
    assert.equal(classes.length, g.nodes.length);
    for (const s of ['pending', 'queued', 'running', 'completed', 'failed', 'cancelled', 'skipped', 'reused'])
      assert.ok(
        lines.some((l) => l.startsWith(`  classDef ${s} fill:#`)),
        s,
      );
  });

  it('a 50-step chain renders left to right, the canvas growing with it', () => {
    const chain = (n: number) =>
      buildGraph({
        runId: 'long',
        name: 'long',
        status: 'completed',
        inputs: ['lib'],
        steps: Array.from({ length: n }, (_, i) =>
          step(`step_${i}`, 'filter', { molecules: i ? `$steps.step_${i - 1}.outputs.molecules` : '$inputs.lib' }, { state: 'completed' }),
        ),
        outputs: { result: `$steps.step_${n - 1}.outputs.molecules` },
      });
    const width = (svg: string) => Number(/^<svg [^>]*width="(\d+)"/.exec(svg)![1]);
    const [s5, s50] = [graphSvg(chain(5)), graphSvg(chain(50))];
    assert.ok(width(s50) > 6 * width(s5), `${width(s50)} vs ${width(s5)}`);
    assert.ok(width(s50) >= 52 * 130);
    const b = nodeBoxes(s50);
    assert.equal(b.size, 52);
    for (let i = 1; i < 50; i++) assert.ok(b.get(`step_${i}`)!.x > b.get(`step_${i - 1}`)!.x + 130);
    assert.equal(new Set([...b.values()].map((n) => n.y + (n.group.includes('class="node step') ? 0 : -10))).size, 1, 'one row');
    assertWellFormed(s50);
  });

  it('does not throw on a cycle or an empty graph', () => {
    const g = buildGraph({
      runId: 'c',
      name: 'c',
      status: 'failed',
      inputs: [],
      steps: [step('a', 'filter', { molecules: '$steps.b.outputs.molecules' }), step('b', 'filter', { molecules: '$steps.a.outputs.molecules' })],
      outputs: {},
    });
    assert.equal(g.edges.length, 2);
    assertWellFormed(graphSvg(g));
    assertWellFormed(graphSvg({ run_id: 'e', name: 'e', status: 'pending', nodes: [], edges: [{ from: 'x', to: 'y', label: 'z' }] }));
    assert.equal(
      graphMermaid({ run_id: 'e', name: 'e', status: 'pending', nodes: [], edges: [{ from: 'x', to: 'y', label: 'z' }] })
        .split('\n')[4]!
        .includes('-->'),
      false,
    );
  });

  it('the SVG passes an XML parser where one is installed', async (t) => {
    const xml = await import('fast-xml-parser').catch(() => null);
    if (!xml) return t.skip('fast-xml-parser is not installed');
    const svg = graphSvg(buildGraph({ ...TRIAGE, runId: `a<b&"c'` }));
    assert.equal(xml.validate(svg), true);
  });
});
