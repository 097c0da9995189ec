// Preloaded into a child `capi import` (NODE_OPTIONS=--require): writes the process's peak
// resident memory and heap, in bytes, to the file named by CAPI_TEST_PEAK_MEMORY when it exits.
const { writeFileSync } = require('node:fs');
const { getHeapStatistics } = require('node:v8');
const { setInterval } = require('node:timers');
let peakHeap = 0;
const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));
setInterval(sample, 20).unref();
process.on('exit', () => {
  sample();
  const heapLimit = getHeapStatistics().heap_size_limit;
  writeFileSync(process.env.CAPI_TEST_PEAK_MEMORY, JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, peakHeap, heapLimit }));
});
