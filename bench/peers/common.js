// What the peers' load clients share: the command line, the window the benchmark opens
// and closes on standard input, and the tally of moves and latencies.
const readline = require('readline');

// --name value pairs of the command line, as numbers where they are numbers.
function options(defaults) {
  const args = { ...defaults };
  for (let i = 2; i < process.argv.length; i += 2) {
    const value = process.argv[i + 1];
    args[process.argv[i].replace(/^--/, '')] = Number.isNaN(Number(value)) ? value : Number(value);
  }
  return args;
}

// Moves received by the opponent while measuring, with the time from sending each.
class Tally {
  constructor() {
    this.sentAt = new Map();
    this.latencies = [];
    this.measuring = false;
    this.errors = 0;
  }
  sent(key) {
    this.sentAt.set(key, performance.now());
  }
  arrived(key) {
    const sent = this.sentAt.get(key);
    if (sent === undefined) return;
    this.sentAt.delete(key);
    if (this.measuring) this.latencies.push(performance.now() - sent);
  }
  summary() {
    const sorted = this.latencies.slice().sort((a, b) => a - b);
    const at = (share) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] : 0);
    return { moves: sorted.length, p50_ms: at(0.5), p99_ms: at(0.99), errors: this.errors };
  }
}

// Say "seated" once `ready` resolves; "start" on standard input opens the window, "stop"
// closes it: the tally's summary is printed as one JSON line and the process exits.
function serveWindow(ready, tally, stopAll) {
  const lines = readline.createInterface({ input: process.stdin });
  ready.then(() => console.log('seated'));
  let started = 0;
  lines.on('line', (line) => {
    if (line === 'start') {
      tally.measuring = true;
      started = performance.now();
    } else if (line === 'stop') {
      tally.measuring = false;
      const seconds = (performance.now() - started) / 1000;
      console.log(JSON.stringify({ ...tally.summary(), seconds }));
      stopAll();
      process.exit(0);
    }
  });
}

// Run `work` on each of `items`, `width` at a time.
async function inChunks(items, width, work) {
  const results = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  }
  return results;
}

module.exports = { options, Tally, serveWindow, inChunks };
