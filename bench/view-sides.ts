import { cpuSnapshot } from './cpu.ts';
import type { HttpClient } from './http-client.ts';
import { median, runLoad } from './load.ts';

/** A server answering the bench's view request: where to send it and whose CPU to count. */
export type ViewSide = { name: string; url: string; pid: number };

/**
 * The view studies' measurement (`view-process.ts`, `view-slim.ts`): each side warmed up for 2 s, then
 * `rounds` rounds in which every side takes `roundMs` at c=32 in rotating order, so none always runs
 * first. The same body and credential headers go to every side. Prints one line per round and the
 * medians; answers each side's server CPU per view, in µs, per round.
 */
export async function measureViewSides(options: {
  http: HttpClient;
  sides: ViewSide[];
  body: string;
  headers: Record<string, string>;
  rounds: number;
  roundMs: number;
}): Promise<number[][]> {
  const { http, sides, body, headers } = options;
  const measure = async (side: ViewSide, durationMs: number) => {
    const result = await runLoad({
      concurrency: 32,
      durationMs,
      cpuSnapshot: () => cpuSnapshot(side.pid),
      task: async () => {
        const answer = await http.post(side.url, body, headers);
        return answer.status === 200
          ? { ok: true }
          : { ok: false, reason: `${answer.status} ${answer.text}` };
      },
    });
    if (result.failed > 0) throw new Error(`${side.name}: ${JSON.stringify([...result.failures])}`);
    return result.cpu?.server ?? Number.NaN;
  };
  for (const side of sides) await measure(side, 2_000);
  const micros: number[][] = sides.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let step = 0; step < sides.length; step++) {
      const index = (round + step) % sides.length;
      micros[index]?.push(await measure(sides[index] as ViewSide, options.roundMs));
    }
    const line = sides.map((side, index) => `${side.name} ${micros[index]?.[round]?.toFixed(1)}`);
    console.log(`round ${round + 1}: ${line.join(' · ')} µs server CPU a view`);
  }
  const medians = sides.map((side, index) => `${side.name} ${median(micros[index] ?? []).toFixed(1)}`);
  console.log(`medians: ${medians.join(' · ')} µs`);
  return micros;
}
