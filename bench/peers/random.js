// A small seeded generator, so that the load clients' runs are alike.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

module.exports = { generator };
