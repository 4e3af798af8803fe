// The Google Maps pieces of the station form (loaded lazily, only with a maps key and
// JavaScript): the address search on the form's own address input, and a map with a draggable
// marker. A click or a drag moves the position; invalid coordinates are rejected.
/// <reference types="google.maps" />
import { useEffect, useMemo, useRef, useState } from "react";
import { APIProvider, AdvancedMarker, Map, useMap, useMapsLibrary, type MapMouseEvent } from "@vis.gl/react-google-maps";
import { provinceFromName } from "#domain/provinces";
import { DEFAULT_CENTER, MAP_ID, MAPS_LIBRARIES, roundCoordinate, validPosition, type LatLng } from "~/lib/maps";
import { browserScriptHost, loadGoogleMaps } from "~/lib/maps-loader";

export interface PlaceResult {
  address: string;
  position: LatLng;
  city?: string;
  province?: string;
  postalCode?: string;
}

export interface LocationMapProps {
  apiKey: string;
  position: LatLng | null;
  addressInputId: string;
  onPosition: (position: LatLng) => void;
  onPlace: (place: PlaceResult) => void;
  onRejected: () => void;
  onFailed: () => void;
}

type AuthWindow = Window & { gm_authFailure?: () => void };

/** Loads the API (3 retries, growing delays), then shows the map; reports a failure to fall back. */
export default function LocationMap(props: LocationMapProps) {
  const { apiKey, onFailed } = props;
  const [ready, setReady] = useState(false);
  const failed = useRef(onFailed);
  failed.current = onFailed;

  useEffect(() => {
    let live = true;
    // Google calls this global when the key is refused (billing, referrer…).
    (window as AuthWindow).gm_authFailure = () => failed.current();
    loadGoogleMaps(browserScriptHost(), apiKey).then(
      () => live && setReady(true),
      () => live && failed.current(),
    );
    return () => {
      live = false;
    };
  }, [apiKey]);

  if (!ready) {
    return (
      <div className="station-map station-map-loading" role="status">
        Cargando el mapa…
      </div>
    );
  }
  return (
    <APIProvider apiKey={apiKey} libraries={[...MAPS_LIBRARIES]} language="es-419" region="AR" onError={() => failed.current()}>
      <MapWithMarker {...props} />
    </APIProvider>
  );
}

function MapWithMarker({ position, addressInputId, onPosition, onPlace, onRejected }: LocationMapProps) {
  const accept = (lat: number | undefined, lng: number | undefined) => {
    const valid = validPosition(lat, lng);
    if (!valid) return onRejected();
    onPosition({ lat: roundCoordinate(valid.lat), lng: roundCoordinate(valid.lng) });
  };
  return (
    <>
      <AddressSearch inputId={addressInputId} onPlace={onPlace} />
      <div className="station-map" data-testid="station-map">
        <Map
          mapId={MAP_ID}
          defaultCenter={position ?? DEFAULT_CENTER}
          defaultZoom={position ? 16 : 11}
          gestureHandling="cooperative"
          disableDefaultUI={false}
          streetViewControl={false}
          onClick={(e: MapMouseEvent) => accept(e.detail.latLng?.lat, e.detail.latLng?.lng)}
        >
          {position ? (
            <AdvancedMarker
              position={position}
              draggable
              title="Arrastrá el marcador para ajustar la ubicación"
              onDragEnd={(e: google.maps.MapMouseEvent) => accept(e.latLng?.lat(), e.latLng?.lng())}
            />
          ) : null}
          <FollowPosition position={position} />
        </Map>
      </div>
    </>
  );
}

/** Pans to a position typed in the fields or chosen in the search (not to every drag). */
function FollowPosition({ position }: { position: LatLng | null }) {
  const map = useMap();
  const last = useRef<string>("");
  useEffect(() => {
    if (!map || !position) return;
    const key = `${position.lat},${position.lng}`;
    if (key === last.current) return;
    last.current = key;
    const bounds = map.getBounds();
    if (!bounds || !bounds.contains(position)) map.panTo(position);
  }, [map, position]);
  return null;
}

/** Google's address search on the form's address input: places of types establishment and geocode. */
function AddressSearch({ inputId, onPlace }: { inputId: string; onPlace: (place: PlaceResult) => void }) {
  const places = useMapsLibrary("places");
  const callback = useRef(onPlace);
  callback.current = onPlace;

  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    if (!places || !input) return;
    const autocomplete = new places.Autocomplete(input, {
      types: ["establishment", "geocode"],
      fields: ["formatted_address", "geometry", "address_components", "name"],
      componentRestrictions: { country: "ar" },
    });
    const listener = autocomplete.addListener("place_changed", () => {
      const place = autocomplete.getPlace();
      const location = place.geometry?.location;
      if (!location) return;
      const component = (type: string) => place.address_components?.find((c) => c.types.includes(type));
      const provinceName = component("administrative_area_level_1")?.long_name;
      callback.current({
        address: place.formatted_address ?? place.name ?? input.value,
        position: { lat: roundCoordinate(location.lat()), lng: roundCoordinate(location.lng()) },
        city: (component("locality") ?? component("administrative_area_level_2") ?? component("sublocality"))?.long_name,
        province: provinceName ? provinceFromName(provinceName) : undefined,
        postalCode: component("postal_code")?.long_name,
      });
    });
    // Enter picks a suggestion instead of submitting the form.
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === "Enter" && document.querySelector(".pac-container .pac-item")) {
        const visible = [...document.querySelectorAll<HTMLElement>(".pac-container")].some((el) => el.offsetParent !== null);
        if (visible) e.preventDefault();
      }
    };
    input.addEventListener("keydown", onKeyDown);
    return () => {
      listener.remove();
      input.removeEventListener("keydown", onKeyDown);
      google.maps.event.clearInstanceListeners(autocomplete);
    };
  }, [places, inputId]);
  return null;
}

/** The list screen's map: every station with a marker linking to its edit screen. */
export function StationsMap({ apiKey, stations, onFailed }: { apiKey: string; stations: { id: string; name: string; latitude: number; longitude: number }[]; onFailed: () => void }) {
  const [ready, setReady] = useState(false);
  const failed = useRef(onFailed);
  failed.current = onFailed;
  useEffect(() => {
    let live = true;
    (window as AuthWindow).gm_authFailure = () => failed.current();
    loadGoogleMaps(browserScriptHost(), apiKey).then(
      () => live && setReady(true),
      () => live && failed.current(),
    );
    return () => {
      live = false;
    };
  }, [apiKey]);
  const points = useMemo(() => stations.filter((s) => validPosition(s.latitude, s.longitude)), [stations]);
  const positions = useMemo(() => points.map((s) => ({ lat: s.latitude, lng: s.longitude })), [points]);
  if (!ready) {
    return (
      <div className="station-map station-map-loading" role="status">
        Cargando el mapa…
      </div>
    );
  }
  return (
    <APIProvider apiKey={apiKey} libraries={[...MAPS_LIBRARIES]} language="es-419" region="AR" onError={() => failed.current()}>
      <div className="station-map" data-testid="stations-map">
        <Map mapId={MAP_ID} defaultCenter={points[0] ? { lat: points[0].latitude, lng: points[0].longitude } : DEFAULT_CENTER} defaultZoom={points.length > 1 ? 5 : 12} gestureHandling="cooperative">
          {points.map((s) => (
            <AdvancedMarker key={s.id} position={{ lat: s.latitude, lng: s.longitude }} title={s.name} onClick={() => window.location.assign(`/station/edit/${s.id}`)} />
          ))}
          <FitBounds points={positions} />
        </Map>
      </div>
    </APIProvider>
  );
}

function FitBounds({ points }: { points: LatLng[] }) {
  const map = useMap();
  const core = useMapsLibrary("core");
  useEffect(() => {
    if (!map || !core || points.length < 2) return;
    const bounds = new core.LatLngBounds();
    for (const p of points) bounds.extend(p);
    map.fitBounds(bounds, 48);
  }, [map, core, points]);
  return null;
}
