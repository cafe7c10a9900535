// Repairs are searched here, off the page's thread: a search may take seconds, and the page stays
// responsive meanwhile (the page ends this worker when the text changes).
import init, { repairs } from './pkg/referee_web.js';

const ready = init();

onmessage = async (e) => {
  await ready;
  const { id, text, index } = e.data;
  const t0 = performance.now();
  const out = repairs(text, index);
  postMessage({ id, out, ms: performance.now() - t0 });
};
