import { Card, Grid, Text } from "@radix-ui/themes";

type ImportStatCardsProps = {
  stats: { total_imports: number; total_records_processed: number; avg_success_rate: number; last_import_date: number | null } | undefined;
};

/** Total Imports, Records Processed, Success Rate, Last Import (import_statistics). */
export function ImportStatCards({ stats }: ImportStatCardsProps) {
  const items = [
    { label: "Total Imports", value: stats ? stats.total_imports.toLocaleString() : "…" },
    { label: "Records Processed", value: stats ? stats.total_records_processed.toLocaleString() : "…" },
    { label: "Success Rate", value: stats ? `${stats.avg_success_rate.toFixed(1)}%` : "…" },
    { label: "Last Import", value: stats ? (stats.last_import_date ? new Date(stats.last_import_date).toLocaleDateString() : "Never") : "…" },
  ];
  return (
    <Grid columns={{ initial: "2", md: "4" }} gap="3" mb="4" data-testid="importHistory.stats">
      {items.map((i) => (
        <Card key={i.label} aria-label={i.label}>
          <Text as="div" size="2" color="gray">{i.label}</Text>
          <Text as="div" size="6" weight="bold">{i.value}</Text>
        </Card>
      ))}
    </Grid>
  );
}
