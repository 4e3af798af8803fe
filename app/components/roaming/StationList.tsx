// Roaming: the company's stations and whether each is published, a page at a time.
import { Form, Link } from "react-router";
import { Badge, Button, Flex, Heading, Text } from "@radix-ui/themes";
import type { Page, RoamingStationDto } from "#contract/dto";
import { STATION_PAGE } from "./types";

function StationItem({ station, writable }: { station: RoamingStationDto; writable: boolean }) {
  return (
    <li className="roaming-station" data-testid="roaming-station" data-published={station.roamingPublished}>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <div>
          <Text weight="medium">{station.name}</Text>{" "}
          <Text size="2" color="gray">
            {station.city}
          </Text>{" "}
          <Badge color={station.roamingPublished ? "green" : "gray"} variant="soft">
            {station.roamingPublished ? "Publicada en roaming" : "No publicada"}
          </Badge>
        </div>
        {writable ? (
          <Form method="post">
            <input type="hidden" name="intent" value="station" />
            <input type="hidden" name="id" value={station.id} />
            <input type="hidden" name="name" value={station.name} />
            <input type="hidden" name="roamingPublished" value={station.roamingPublished ? "false" : "true"} />
            <Button type="submit" variant="soft" size="2" color={station.roamingPublished ? "gray" : undefined} aria-label={`${station.roamingPublished ? "Dejar de publicar" : "Publicar"} ${station.name} en roaming`}>
              {station.roamingPublished ? "Dejar de publicar" : "Publicar en roaming"}
            </Button>
          </Form>
        ) : null}
      </Flex>
    </li>
  );
}

/** The "Estaciones publicadas en roaming" section of the page. */
export function StationList({ stations, writable }: { stations: Page<RoamingStationDto> | null; writable: boolean }) {
  const page = stations ? stations.page : 1;
  const pages = stations ? Math.max(1, Math.ceil(stations.total / STATION_PAGE)) : 1;
  return (
    <section aria-labelledby="stations-title">
      <Heading as="h2" size="4" mb="3" id="stations-title">
        Estaciones publicadas en roaming
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        Los socios ven las estaciones publicadas, sus cargadores con su estado y las tarifas de sus conectores (la penalidad por inactividad como tiempo de estacionamiento).
      </Text>
      {stations && stations.items.length ? (
        <>
          <ul className="roaming-list" aria-label="Estaciones">
            {stations.items.map((s) => (
              <StationItem key={s.id} station={s} writable={writable} />
            ))}
          </ul>
          {pages > 1 ? (
            <Flex gap="3" mt="3" align="center">
              {page > 1 ? <Link to={`/roaming?page=${page - 1}`}>Anterior</Link> : null}
              <Text size="2">
                Página {page} de {pages}
              </Text>
              {page < pages ? <Link to={`/roaming?page=${page + 1}`}>Siguiente</Link> : null}
            </Flex>
          ) : null}
        </>
      ) : (
        <Text as="p" color="gray" data-testid="no-stations">
          Todavía no tenés estaciones.
        </Text>
      )}
    </section>
  );
}
