/** The truth-sim's process (bench/truth-sim.ts): the sim as `servebench sim` starts it; reports its URL to the parent, serves until killed. */
const { startDedicatedSim } = await import('../src/sim/server/sim-thread.js');
const server = await startDedicatedSim(process.argv.slice(2), { quiet: true, port: 0, host: '127.0.0.1' });
process.send!({ url: server.url });
