// What else the machine was doing while a benchmark ran: the load averages and core count,
// printed next to the numbers, since on a shared 2-core machine they move p99 more than code.
import os from "node:os";

export function machineLoad() {
  const [one, five, fifteen] = os.loadavg().map((x) => Number(x.toFixed(2)));
  return { cores: os.availableParallelism(), load_1m: one, load_5m: five, load_15m: fifteen };
}
