/** The Submissions tab's per-question summary: counts per option, average rating, slider histogram, number average. */
import type { Responses, SurveyField, SurveyPage } from "@convex/lib/surveys/rules";

export type QuestionSummary =
  | { kind: "options"; field: SurveyField; answered: number; counts: Array<{ option: string; count: number }> }
  | {
      kind: "rating";
      field: SurveyField;
      answered: number;
      average: number | null;
      counts: Array<{ option: string; count: number }>;
    }
  | {
      kind: "histogram";
      field: SurveyField;
      answered: number;
      average: number | null;
      buckets: Array<{ from: number; to: number; count: number }>;
    }
  | { kind: "number"; field: SurveyField; answered: number; average: number | null }
  | { kind: "text"; field: SurveyField; answered: number };

const BUCKETS = 10;

export function summarize(pages: SurveyPage[], all: Responses[]): QuestionSummary[] {
  return pages.flatMap((p) =>
    p.fields.map((f): QuestionSummary => {
      const answers = all.map((r) => r[f.id]).filter((a) => a !== undefined);
      const answered = answers.length;
      const numbers = answers.map(Number).filter((n) => Number.isFinite(n));
      const average = numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null;
      if (f.type === "select" || f.type === "radio" || f.type === "checkbox") {
        const options = f.options.map((o) => o.trim()).filter(Boolean);
        const counts = options.map((option) => ({
          option,
          count: answers.filter((a) => (Array.isArray(a) ? a.includes(option) : a === option)).length,
        }));
        return { kind: "options", field: f, answered, counts };
      }
      if (f.type === "rating") {
        const scale = f.ratingType === "thumbs" ? [1, -1] : Array.from({ length: f.maxRating ?? 5 }, (_, i) => i + 1);
        const counts = scale.map((n) => ({
          option: f.ratingType === "thumbs" ? (n === 1 ? "👍" : "👎") : String(n),
          count: numbers.filter((x) => x === n).length,
        }));
        return { kind: "rating", field: f, answered, average, counts };
      }
      if (f.type === "slider") {
        const min = f.min ?? 0;
        const max = f.max ?? 100;
        const width = (max - min) / BUCKETS;
        const buckets = Array.from({ length: BUCKETS }, (_, i) => ({
          from: min + i * width,
          to: min + (i + 1) * width,
          count: 0,
        }));
        for (const n of numbers) buckets[Math.min(BUCKETS - 1, Math.max(0, Math.floor((n - min) / width)))].count++;
        return { kind: "histogram", field: f, answered, average, buckets };
      }
      if (f.type === "number") return { kind: "number", field: f, answered, average };
      return { kind: "text", field: f, answered };
    }),
  );
}
