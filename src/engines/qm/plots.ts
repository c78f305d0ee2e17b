// The plots of the frequency and scan job types (docs/engines.md, "Frequencies and scans"):
// an IR spectrum (Lorentzian-broadened sticks, wavenumber decreasing from left to right as IR
// spectra are read) and a torsion energy profile, each a self-contained SVG (no scripts, no
// external references) stored in the result artifact's `plot` port.

const W = 760;
const H = 440;
const M = { left: 78, right: 24, top: 48, bottom: 62 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
/** Full width at half maximum of the IR bands, cm-1. */
export const IR_FWHM = 20;

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
const num = (v: number) => (Math.round(v * 100) / 100).toString();

/** Round tick positions covering [lo, hi], about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

function fmtTick(v: number): string {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
}

interface Axis {
  lo: number;
  hi: number;
  ticks: number[];
  label: string;
  /** Values decrease from left to right (IR wavenumbers). */
  reversed?: boolean;
}

/** The frame, grid, ticks and labels of a plot; `body` draws inside it with the scale functions. */
function plot(title: string, subtitle: string, x: Axis, y: Axis, body: (sx: (v: number) => number, sy: (v: number) => number) => string): string {
  const sx = (v: number) => M.left + (x.reversed ? (x.hi - v) / (x.hi - x.lo) : (v - x.lo) / (x.hi - x.lo)) * PW;
  const sy = (v: number) => M.top + PH - ((v - y.lo) / (y.hi - y.lo)) * PH;
  const parts: string[] = [];
  parts.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  for (const t of x.ticks) {
    const px = num(sx(t));
    parts.push(`<line x1="${px}" y1="${M.top}" x2="${px}" y2="${M.top + PH}" stroke="#e5e7eb" stroke-width="1"/>`);
    parts.push(`<line x1="${px}" y1="${M.top + PH}" x2="${px}" y2="${M.top + PH + 5}" stroke="#374151" stroke-width="1"/>`);
    parts.push(`<text x="${px}" y="${M.top + PH + 19}" text-anchor="middle">${fmtTick(t)}</text>`);
  }
  for (const t of y.ticks) {
    const py = num(sy(t));
    parts.push(`<line x1="${M.left}" y1="${py}" x2="${M.left + PW}" y2="${py}" stroke="#e5e7eb" stroke-width="1"/>`);
    parts.push(`<line x1="${M.left - 5}" y1="${py}" x2="${M.left}" y2="${py}" stroke="#374151" stroke-width="1"/>`);
    parts.push(`<text x="${M.left - 8}" y="${py}" text-anchor="end" dominant-baseline="middle">${fmtTick(t)}</text>`);
  }
  parts.push(`<g clip-path="url(#area)">${body(sx, sy)}</g>`);
  parts.push(`<rect x="${M.left}" y="${M.top}" width="${PW}" height="${PH}" fill="none" stroke="#374151" stroke-width="1"/>`);
  parts.push(`<text x="${M.left + PW / 2}" y="${H - 16}" text-anchor="middle" font-size="14">${esc(x.label)}</text>`);
  parts.push(`<text transform="translate(20 ${M.top + PH / 2}) rotate(-90)" text-anchor="middle" font-size="14">${esc(y.label)}</text>`);
  parts.push(`<text x="${M.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`);
  if (subtitle) parts.push(`<text x="${M.left}" y="39" font-size="12" fill="#4b5563">${esc(subtitle)}</text>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="12" fill="#111827">` +
    `<defs><clipPath id="area"><rect x="${M.left}" y="${M.top}" width="${PW}" height="${PH}"/></clipPath></defs>` +
    parts.join('') +
    '</svg>\n'
  );
}

/** The Lorentzian envelope at `v`: each band has its stick's height at its centre. */
export function irEnvelope(frequencies: number[], intensities: number[], v: number, fwhm = IR_FWHM): number {
  const g2 = (fwhm / 2) ** 2;
  let sum = 0;
  frequencies.forEach((f, i) => {
    if (f > 0) sum += ((intensities[i] ?? 0) * g2) / ((v - f) ** 2 + g2);
  });
  return sum;
}

/** The IR spectrum of one structure: sticks (real modes) and their Lorentzian envelope. */
export function irSpectrumSvg(o: { title: string; method: string; frequencies: number[]; intensities: number[]; scaleFactor?: number }): string {
  // Degenerate modes (within 1 cm-1) are one stick of their summed intensity, as the envelope sums them.
  const real: { f: number; i: number }[] = [];
  o.frequencies.forEach((f, k) => {
    if (!(f > 0)) return;
    const last = real[real.length - 1];
    if (last && f - last.f < 1) last.i += o.intensities[k] ?? 0;
    else real.push({ f, i: o.intensities[k] ?? 0 });
  });
  const modes = o.frequencies.filter((f) => f > 0).length;
  const imaginary = o.frequencies.length - modes;
  const top = Math.max(4000, Math.ceil((Math.max(0, ...real.map((m) => m.f)) + 100) / 500) * 500);
  const low = Math.min(400, Math.floor(Math.min(top, ...real.map((m) => m.f)) / 100) * 100);
  const samples = 2 * PW;
  const curve: [number, number][] = [];
  for (let k = 0; k <= samples; k++) {
    const v = low + ((top - low) * k) / samples;
    curve.push([v, irEnvelope(o.frequencies, o.intensities, v)]);
  }
  // Band centres sampled exactly, so that a narrow band keeps its height.
  for (const m of real) curve.push([m.f, irEnvelope(o.frequencies, o.intensities, m.f)]);
  curve.sort((a, b) => a[0] - b[0]);
  const peak = Math.max(...curve.map((c) => c[1]), ...real.map((m) => m.i));
  const yTicks = niceTicks(0, peak > 0 ? peak * 1.08 : 1, 5);
  const y: Axis = { lo: 0, hi: Math.max(yTicks[yTicks.length - 1]!, peak > 0 ? peak * 1.08 : 1), ticks: yTicks, label: 'IR intensity (km/mol)' };
  const xTicks = niceTicks(low, top, 8);
  // Both ends labelled too, unless a tick is close to them.
  for (const end of [low, top]) if (xTicks.every((t) => Math.abs(t - end) > 0.06 * (top - low))) xTicks.push(end);
  const x: Axis = { lo: low, hi: top, ticks: xTicks, label: 'Wavenumber (cm⁻¹)', reversed: true };
  const notes = [
    `${o.method.toUpperCase()}, harmonic${o.scaleFactor !== undefined && o.scaleFactor !== 1 ? `, scaled ×${o.scaleFactor}` : ''}`,
    `Lorentzian bands, FWHM ${IR_FWHM} cm⁻¹`,
    `${modes} real mode${modes === 1 ? '' : 's'}`,
  ];
  if (imaginary) notes.push(`${imaginary} imaginary not shown`);
  if (!(peak > 0)) notes.push('no IR-active mode');
  return plot(`IR spectrum: ${o.title}`, notes.join(' · '), x, y, (sx, sy) => {
    const sticks = real.map((m) => `M${num(sx(m.f))} ${num(sy(0))}V${num(sy(m.i))}`).join('');
    const path = curve.map(([v, a], k) => `${k ? 'L' : 'M'}${num(sx(v))} ${num(sy(a))}`).join('');
    return (
      `<path d="${path}" fill="#dbeafe" fill-opacity="0.6" stroke="none"/>` +
      `<path d="${path}" fill="none" stroke="#1d4ed8" stroke-width="1.5"/>` +
      (sticks ? `<path d="${sticks}" fill="none" stroke="#b91c1c" stroke-width="1.2"/>` : '')
    );
  });
}

/** The energy profile of a relaxed torsion scan: relative energy against the dihedral angle. */
export function scanProfileSvg(o: { title: string; method: string; dihedral: number[]; points: { angle_deg: number; relative_kcal: number }[] }): string {
  const angles = o.points.map((p) => p.angle_deg);
  const lo = Math.min(...angles);
  const hi = Math.max(...angles);
  const span = hi - lo || 1;
  // Angle ticks at multiples of 5, 10, 15, 30, 60 or 90 degrees, at most 9 of them.
  const step = [5, 10, 15, 30, 60, 90].find((t) => span / t <= 8) ?? 90;
  const first = Math.ceil(lo / step);
  const onStep = Array.from({ length: Math.max(0, Math.floor(hi / step) - first + 1) }, (_, k) => (first + k) * step);
  const xTicks = onStep.length >= 2 ? onStep : niceTicks(lo, hi, 6);
  const x: Axis = { lo, hi: lo + span, ticks: xTicks, label: `Dihedral angle ${o.dihedral.join('-')} (degrees)` };
  const peak = Math.max(...o.points.map((p) => p.relative_kcal), 0);
  const yTop = Math.max(peak * 1.1, 0.5);
  const yTicks = niceTicks(0, yTop, 6);
  const yHi = Math.max(yTop, yTicks[yTicks.length - 1]!);
  // A little room below zero, so that the lowest points are not cut by the frame.
  const y: Axis = { lo: -0.03 * yHi, hi: yHi, ticks: yTicks, label: 'Relative energy (kcal/mol)' };
  const pad = { ...x, lo: x.lo - span * 0.02, hi: x.hi + span * 0.02 };
  const lowest = o.points.reduce((a, b) => (b.relative_kcal < a.relative_kcal ? b : a), o.points[0]!);
  const sub = `${o.method.toUpperCase()}, relaxed scan, ${o.points.length} points; lowest at ${num(lowest.angle_deg)}°, highest ${num(peak)} kcal/mol above it`;
  return plot(`Torsion scan: ${o.title}`, sub, pad, y, (sx, sy) => {
    const line = o.points.map((p, k) => `${k ? 'L' : 'M'}${num(sx(p.angle_deg))} ${num(sy(p.relative_kcal))}`).join('');
    const dots = o.points.map((p) => `<circle cx="${num(sx(p.angle_deg))}" cy="${num(sy(p.relative_kcal))}" r="3.2" fill="#1d4ed8"/>`).join('');
    return `<path d="${line}" fill="none" stroke="#1d4ed8" stroke-width="1.6"/>${dots}`;
  });
}
