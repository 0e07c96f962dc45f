// A metric per LoCoMo category (multi-hop, temporal, open-domain, single-hop), so a change that
// helps one kind of question and hurts another shows instead of averaging out.

/** `{ [category_name]: { questions, ...metrics(subset) } }`, names in the dataset's order of ids. */
export function byCategory(questions, metrics) {
  const groups = new Map();
  for (const q of [...questions].sort((a, b) => (a.category ?? 0) - (b.category ?? 0))) {
    const name = q.category_name ?? `category ${q.category ?? "?"}`;
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(q);
  }
  return Object.fromEntries(
    [...groups].map(([name, subset]) => [name, { questions: subset.length, ...metrics(subset) }]),
  );
}
