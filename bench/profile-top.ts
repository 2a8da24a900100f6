/**
 * `bun run bench/profile-top.ts <file.cpuprofile> [n]`: the frames with the most self time in a
 * profile written by `bun --cpu-prof` (Chrome's .cpuprofile format), as a markdown table.
 * `--last=<seconds>`: only the samples of the profile's last seconds (the load, not the start-up).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function topFrames(profile: Profile, count: number, lastSeconds = Infinity): { frame: string; ms: number; share: number }[] {
  const frameOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    frameOf.set(node.id, `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`);
  }
  const self = new Map<string, number>();
  let total = 0;
  const end = profile.timeDeltas.reduce((sum, us) => sum + us, 0);
  let at = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (end - at > lastSeconds * 1e6) return;
    const frame = frameOf.get(id) ?? '(unknown)';
    self.set(frame, (self.get(frame) ?? 0) + us);
    total += us;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, us]) => ({ frame, ms: us / 1000, share: total > 0 ? us / total : 0 }));
}

if (import.meta.main) {
  const last = process.argv.find((a) => a.startsWith('--last='));
  const [file, n] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!file) {
    console.error('usage: bun run bench/profile-top.ts <file.cpuprofile> [n] [--last=<seconds>]');
    process.exit(1);
  }
  const rows = topFrames(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(n ?? 25), last ? Number(last.slice('--last='.length)) : Infinity);
  console.log('| self ms | share | frame |\n|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.ms.toFixed(0)} | ${(100 * r.share).toFixed(1)} % | \`${r.frame}\` |`);
}
