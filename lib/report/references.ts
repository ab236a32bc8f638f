/**
 * The works a report's methods paragraph cites, as BibTeX: Cereal always, FixMatch where the
 * surrogate trained with it, prediction-powered inference (and PPI++'s power tuning) where the
 * estimator or its intervals use it, MCL for pairwise surrogates, ACE for label-free scores.
 */
export interface Reference {
  readonly key: string;
  readonly type: "article" | "inproceedings";
  /** BibTeX fields in print order, values as BibTeX reads them (braces keep capitals) */
  readonly fields: Readonly<Record<string, string>>;
}

export const REFERENCES = {
  cereal: {
    key: "nayak2022cereal",
    type: "article",
    fields: {
      title: "{CEREAL}: Few-Sample Clustering Evaluation",
      author: "Nayak, Nihal V. and Elenberg, Ethan R. and Rosenbaum, Clemens",
      journal: "arXiv preprint arXiv:2210.00064",
      year: "2022",
    },
  },
  fixmatch: {
    key: "sohn2020fixmatch",
    type: "inproceedings",
    fields: {
      title: "{FixMatch}: Simplifying Semi-Supervised Learning with Consistency and Confidence",
      author: "Sohn, Kihyuk and Berthelot, David and Li, Chun-Liang and Zhang, Zizhao and Carlini, Nicholas and Cubuk, Ekin D. and Kurakin, Alex and Zhang, Han and Raffel, Colin",
      booktitle: "Advances in Neural Information Processing Systems",
      volume: "33",
      year: "2020",
    },
  },
  ppi: {
    key: "angelopoulos2023ppi",
    type: "article",
    fields: {
      title: "Prediction-Powered Inference",
      author: "Angelopoulos, Anastasios N. and Bates, Stephen and Fannjiang, Clara and Jordan, Michael I. and Zrnic, Tijana",
      journal: "Science",
      volume: "382",
      number: "6671",
      pages: "669--674",
      year: "2023",
    },
  },
  ppiPlusPlus: {
    key: "angelopoulos2023ppipp",
    type: "article",
    fields: {
      title: "{PPI++}: Efficient Prediction-Powered Inference",
      author: "Angelopoulos, Anastasios N. and Duchi, John C. and Zrnic, Tijana",
      journal: "arXiv preprint arXiv:2311.01453",
      year: "2023",
    },
  },
  mcl: {
    key: "hsu2019mcl",
    type: "inproceedings",
    fields: {
      title: "Multi-class Classification without Multi-class Labels",
      author: "Hsu, Yen-Chang and Lv, Zhaoyang and Schlosser, Joel and Odom, Phillip and Kira, Zsolt",
      booktitle: "International Conference on Learning Representations",
      year: "2019",
    },
  },
  ace: {
    key: "wang2024ace",
    type: "article",
    fields: {
      title: "Deep Clustering Evaluation: How to Validate Internal Clustering Validation Measures",
      author: "Wang, Zeya and Ye, Chenglong",
      journal: "arXiv preprint arXiv:2403.14830",
      year: "2024",
    },
  },
} as const satisfies Record<string, Reference>;

export type ReferenceName = keyof typeof REFERENCES;

/** One entry, fields aligned. */
export function bibtexEntry(reference: Reference): string {
  const width = Math.max(...Object.keys(reference.fields).map((f) => f.length));
  const fields = Object.entries(reference.fields).map(([field, value]) => `  ${field.padEnd(width)} = {${value}}`);
  return `@${reference.type}{${reference.key},\n${fields.join(",\n")}\n}`;
}

/** The .bib file of the given references, in the order given. */
export function bibtex(names: readonly ReferenceName[]): string {
  return [...new Set(names)].map((n) => bibtexEntry(REFERENCES[n])).join("\n\n") + "\n";
}
