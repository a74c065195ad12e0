import { Flex, Text } from "@radix-ui/themes";
import { ROUTES } from "@/lib/routes";
import { useViewer } from "@/session/ViewerProvider";
import { NoPermission } from "@/ui/NoPermission";
import { PageHeader } from "@/ui/PageHeader";
import { GeocodingSection } from "./components/GeocodingSection";
import { MapLayersSection } from "./components/MapLayersSection";
import { TileSourceSection } from "./components/TileSourceSection";
import { useGeocoding } from "./hooks/useGeocoding";
import { useMapData, useTileSource } from "./hooks/useMapData";

/**
 * /account-settings/map-data (issue 36): the organisation's map layers (TIGER/Line streets and
 * boundaries, GeoJSON, a PMTiles basemap), its tile source and the voter file's geocoding.
 * Organisation admins only; every call is checked by the server too.
 */
export function MapDataPage() {
  const { can } = useViewer();
  const allowed = can("organization.manage");
  if (!allowed) return <NoPermission />;
  return <MapData canGeocode={can("voters.manage")} />;
}

function MapData({ canGeocode }: { canGeocode: boolean }) {
  const { overview, remove } = useMapData();
  const tileSource = useTileSource();
  const geocoding = useGeocoding();
  return (
    <>
      <PageHeader
        title="Map data"
        description={
          <Text>
            Streets, district boundaries and a basemap for every map, from files you bring (Census TIGER/Line
            shapefiles, GeoJSON, PMTiles). Teammates see changes at once.
          </Text>
        }
        breadcrumbs={[
          { label: "Dashboard", to: ROUTES.dashboard },
          { label: "Account Settings", to: ROUTES.accountSettings },
          { label: "Map data" },
        ]}
      />
      <Flex direction="column" gap="4">
        <MapLayersSection overview={overview} remove={remove} />
        <GeocodingSection status={geocoding.status} canRun={canGeocode} run={geocoding.run} />
        <TileSourceSection settings={tileSource.settings} setTiles={tileSource.setTiles} />
      </Flex>
    </>
  );
}
