/** runPeriodically (src/service/periodic.ts): a pass at once and on each tick, never two at a time; wake; errors reported; stop waits. */
import { expect, test } from 'vitest';
import { runPeriodically } from '../../src/service/periodic';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a pass at once, then one at a time however often it is asked for; wake asks for one sooner', async () => {
  let active = 0;
  let most = 0;
  let passes = 0;
  const runner = runPeriodically(
    async () => {
      active++;
      most = Math.max(most, active);
      await tick(20);
      passes++;
      active--;
    },
    60_000,
    () => undefined,
  );
  runner.wake();
  runner.wake();
  await tick(100);
  expect(passes).toBe(3);
  expect(most).toBe(1);
  await runner.stop();
});

test('a pass that throws is reported, and the next one runs', async () => {
  const errors: unknown[] = [];
  let passes = 0;
  const runner = runPeriodically(
    async () => {
      passes++;
      if (passes === 1) throw new Error('the store is busy');
    },
    60_000,
    (error) => errors.push(error),
  );
  runner.wake();
  await tick(20);
  expect(passes).toBe(2);
  expect((errors as Error[]).map((e) => e.message)).toEqual(['the store is busy']);
  await runner.stop();
});

test('stop waits for the pass under way, which sees stopped(); nothing runs after', async () => {
  let sawStop = false;
  let passes = 0;
  const runner = runPeriodically(
    async (stopped) => {
      passes++;
      while (!stopped()) await tick(5);
      sawStop = true;
    },
    10,
    () => undefined,
  );
  await tick(15);
  await runner.stop();
  expect(sawStop).toBe(true);
  const after = passes;
  await tick(40);
  expect(passes).toBe(after);
});
