import { Grid } from "@radix-ui/themes";
import { StatCard } from "@/ui/StatCard";

type ImportStatCardsProps = {
  stats:
    | {
        total_imports: number;
        total_records_processed: number;
        avg_success_rate: number;
        last_import_date: number | null;
      }
    | undefined;
};

/** Total Imports, Records Processed, Success Rate, Last Import (import_statistics). */
export function ImportStatCards({ stats }: ImportStatCardsProps) {
  const items = [
    { label: "Total Imports", value: stats?.total_imports },
    { label: "Records Processed", value: stats?.total_records_processed },
    { label: "Success Rate", value: stats ? `${stats.avg_success_rate.toFixed(1)}%` : undefined },
    {
      label: "Last Import",
      value: stats
        ? stats.last_import_date
          ? new Date(stats.last_import_date).toLocaleDateString()
          : "Never"
        : undefined,
    },
  ];
  return (
    <Grid columns={{ initial: "2", md: "4" }} gap="3" mb="4" data-testid="importHistory.stats">
      {items.map((i) => (
        <StatCard key={i.label} label={i.label} value={i.value} valueSize="6" />
      ))}
    </Grid>
  );
}
