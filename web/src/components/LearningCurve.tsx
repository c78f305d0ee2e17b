// A training run's learning curve as an inline SVG (docs/console.md, "Models"): the training loss
// (left axis) and the validation metric (right axis) per epoch, one line per ensemble member. Sized
// to its container (a ResizeObserver), so its text stays readable at 390 px; a title and a
// description name it, and the numbers are also a table below it.
import { useEffect, useId, useRef, useState } from 'react';

export interface CurvePoint {
  member: number; // 0-based
  epoch: number; // 1-based
  epochs: number;
  train_loss: number;
  val_metric: number | null;
}

const PAD = { top: 16, right: 58, bottom: 42, left: 58 };
const HEIGHT = 240;

function ticks(lo: number, hi: number, n = 4): number[] {
  if (!(hi > lo)) return [lo];
  const step = (hi - lo) / n;
  return Array.from({ length: n + 1 }, (_, i) => lo + i * step);
}

function extent(values: number[]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return [0, 1];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi === lo) {
    lo -= Math.abs(lo) * 0.1 || 0.5;
    hi += Math.abs(hi) * 0.1 || 0.5;
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

const label = (v: number) => (Math.abs(v) >= 1000 || (v !== 0 && Math.abs(v) < 0.01) ? v.toExponential(1) : Number(v.toPrecision(3)).toString());

export function LearningCurve({ points, metric, live = false }: { points: CurvePoint[]; metric: string; live?: boolean }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(280, Math.min(1200, el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const epochs = Math.max(1, ...points.map((p) => p.epochs));
  const members = [...new Set(points.map((p) => p.member))].sort((a, b) => a - b);
  const [lossLo, lossHi] = extent(points.map((p) => p.train_loss));
  const vals = points.map((p) => p.val_metric).filter((v): v is number => v !== null);
  const [valLo, valHi] = extent(vals);
  const w = width - PAD.left - PAD.right;
  const h = HEIGHT - PAD.top - PAD.bottom;
  const x = (epoch: number) => PAD.left + (epochs === 1 ? w / 2 : ((epoch - 1) / (epochs - 1)) * w);
  const yLoss = (v: number) => PAD.top + h - ((v - lossLo) / (lossHi - lossLo)) * h;
  const yVal = (v: number) => PAD.top + h - ((v - valLo) / (valHi - valLo)) * h;
  const xTicks = epochs <= 10 ? Array.from({ length: epochs }, (_, i) => i + 1) : ticks(1, epochs, 5).map(Math.round);
  const last = points[points.length - 1];
  const desc = last
    ? `${points.length} points over ${epochs} epochs${members.length > 1 ? ` and ${members.length} ensemble members` : ''}${live ? ' so far' : ''}. Last: epoch ${last.epoch}, training loss ${label(last.train_loss)}, validation ${metric} ${last.val_metric === null ? 'n/a' : label(last.val_metric)}.`
    : 'No epoch has finished yet.';

  return (
    <figure className="curve" ref={box}>
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>Learning curve: training loss and validation {metric} per epoch</title>
        <desc id={`${id}-d`}>{desc}</desc>
        <rect x={PAD.left} y={PAD.top} width={w} height={h} className="frame" />
        {ticks(lossLo, lossHi).map((v) => (
          <g key={`l${v}`}>
            <line x1={PAD.left} x2={PAD.left + w} y1={yLoss(v)} y2={yLoss(v)} className="grid" />
            <text x={PAD.left - 6} y={yLoss(v) + 4} textAnchor="end" className="tick loss">
              {label(v)}
            </text>
          </g>
        ))}
        {vals.length > 0 &&
          ticks(valLo, valHi).map((v) => (
            <text key={`v${v}`} x={PAD.left + w + 6} y={yVal(v) + 4} className="tick val">
              {label(v)}
            </text>
          ))}
        {xTicks.map((e) => (
          <text key={`x${e}`} x={x(e)} y={PAD.top + h + 16} textAnchor="middle" className="tick">
            {e}
          </text>
        ))}
        <text x={PAD.left + w / 2} y={HEIGHT - 6} textAnchor="middle" className="axis">
          Epoch
        </text>
        <text transform={`translate(14 ${PAD.top + h / 2}) rotate(-90)`} textAnchor="middle" className="axis loss">
          Training loss
        </text>
        <text transform={`translate(${width - 8} ${PAD.top + h / 2}) rotate(90)`} textAnchor="middle" className="axis val">
          Validation {metric}
        </text>
        {members.map((m) => {
          const mine = points.filter((p) => p.member === m).sort((a, b) => a.epoch - b.epoch);
          const withVal = mine.filter((p) => p.val_metric !== null);
          return (
            <g key={m} data-member={m + 1} opacity={members.length > 1 ? 1 - (0.5 * members.indexOf(m)) / (members.length - 1) : 1}>
              <polyline className="line loss" points={mine.map((p) => `${x(p.epoch)},${yLoss(p.train_loss)}`).join(' ')} />
              <polyline className="line val" points={withVal.map((p) => `${x(p.epoch)},${yVal(p.val_metric!)}`).join(' ')} />
              {mine.map((p) => (
                <circle key={`l${p.epoch}`} className="pt loss" cx={x(p.epoch)} cy={yLoss(p.train_loss)} r={3.5} data-epoch={p.epoch} data-value={p.train_loss} />
              ))}
              {withVal.map((p) => (
                <rect
                  key={`v${p.epoch}`}
                  className="pt val"
                  x={x(p.epoch) - 3.5}
                  y={yVal(p.val_metric!) - 3.5}
                  width={7}
                  height={7}
                  data-epoch={p.epoch}
                  data-value={p.val_metric!}
                />
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend small">
        <span className="key loss">● Training loss (left axis)</span> <span className="key val">■ Validation {metric} (right axis)</span>
        {members.length > 1 && <span className="muted">one line a member, member 1 darkest</span>}
      </figcaption>
      <details className="small">
        <summary>The numbers</summary>
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Learning curve numbers">
          <table className="list">
            <caption className="sr-only">Learning curve numbers</caption>
            <thead>
              <tr>
                {members.length > 1 && <th scope="col">Member</th>}
                <th scope="col">Epoch</th>
                <th scope="col">Training loss</th>
                <th scope="col">Validation {metric}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={`${p.member}/${p.epoch}`}>
                  {members.length > 1 && <td>{p.member + 1}</td>}
                  <td>{p.epoch}</td>
                  <td>{p.train_loss.toPrecision(4)}</td>
                  <td>{p.val_metric === null ? '–' : p.val_metric.toPrecision(4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
