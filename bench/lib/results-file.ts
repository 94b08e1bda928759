/**
 * Merging a run's sections into bench/RESULTS.md: a section the run wrote replaces the one of the
 * same number; every other numbered section of the file stays (the sections a partial run,
 * BENCH_ONLY, did not measure, and those measured outside `npm run bench`, such as section 10's
 * callgrind counts), in number order.
 */

/** A `## N. Title` section of the file, its heading line included. */
interface NumberedSection {
  readonly number: number;
  readonly text: string;
}

const NUMBERED = /^## (\d+)\. /;

/** The numbered sections of `markdown`; anything outside them (header, machine, totals) is not. */
export function numberedSections(markdown: string): NumberedSection[] {
  const sections: NumberedSection[] = [];
  let current: { number: number; lines: string[] } | undefined;
  const close = () => {
    if (current)
      sections.push({ number: current.number, text: current.lines.join('\n').trimEnd() });
    current = undefined;
  };
  for (const line of markdown.split('\n')) {
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      close();
      current = { number: Number(numbered[1]), lines: [line] };
    } else if (line.startsWith('## ') || line.startsWith('Total bench time:')) {
      close();
    } else {
      current?.lines.push(line);
    }
  }
  close();
  return sections;
}

/** The run's own sections with the previous file's others, by number; each ends in a blank line. */
export function mergeSections(written: readonly string[], previous: string): string[] {
  const fresh = written.flatMap((text) => numberedSections(text));
  const taken = new Set(fresh.map((section) => section.number));
  const kept = numberedSections(previous).filter((section) => !taken.has(section.number));
  return [...fresh, ...kept]
    .sort((a, b) => a.number - b.number)
    .map((section) => `${section.text}\n`);
}
