/**
 * Test support: a strict reader of the Prometheus text exposition format (version 0.0.4), so
 * tests check that /api/metrics is what a Prometheus server accepts, not only that it has text.
 * Every line must be a HELP, TYPE or other comment, or a sample of a family whose TYPE came first.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?[ \\t]+(\\S+)(?:[ \\t]+-?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  text.split("\n").forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    };
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const type = new RegExp(`^# TYPE (${NAME}) (\\w+)$`).exec(line);
      if (type) {
        if (!TYPES.has(type[2])) fail(`unknown type ${type[2]}`);
        if (types.has(type[1])) fail(`second TYPE for ${type[1]}`);
        types.set(type[1], type[2]);
      } else if (line.startsWith("# HELP ") && !new RegExp(`^# HELP ${NAME}( .*)?$`).test(line)) fail("bad HELP line");
      return;
    }
    const match = SAMPLE.exec(line) ?? fail("not a sample");
    const [, name, labelText = "", valueText] = match;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, "");
    if (!types.has(family)) fail(`no TYPE declared for ${name}`);
    const labels: Record<string, string> = {};
    let rest = labelText;
    while (rest.length) {
      const label = LABEL.exec(rest) ?? fail(`bad labels {${labelText}}`);
      labels[label[1]] = label[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      rest = rest.slice(label[0].length);
      if (rest.startsWith(",")) rest = rest.slice(1);
      else if (rest.length) fail(`bad labels {${labelText}}`);
    }
    // as Prometheus reads values (Go's ParseFloat): Inf and NaN in any case; prom-client writes "Nan"
    const special = /^([+-]?)inf(inity)?$/i.exec(valueText);
    const value = special ? (special[1] === "-" ? -Infinity : Infinity) : /^nan$/i.test(valueText) ? NaN : Number(valueText);
    if (Number.isNaN(value) && !/^nan$/i.test(valueText)) fail(`bad value ${valueText}`);
    samples.push({ name, labels, value });
  });
  return { types, samples };
}

/** The value of the one sample with this name whose labels include `labels`; undefined when none. */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  return exposition.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
