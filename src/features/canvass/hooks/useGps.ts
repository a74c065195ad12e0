import { useEffect, useState } from "react";

const CONSENT_KEY = "precinct.canvass.gps";
/** A position older than this is not stamped on a result. */
const FRESH_MS = 2 * 60_000;

export type Position = { lat: number; lng: number; accuracy: number; at: number };

/**
 * The optional GPS stamp: off until the canvasser turns it on (remembered on this device); while
 * on, the phone's position is followed. Used for the organiser's data-quality flags and to find
 * the doors nearest the canvasser, nothing else.
 */
export function useGps() {
  const [consent, setConsentState] = useState(() => globalThis.localStorage?.getItem(CONSENT_KEY) === "on");
  const [position, setPosition] = useState<Position | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    if (!consent) {
      setPosition(null);
      return;
    }
    const geo = typeof navigator !== "undefined" ? navigator.geolocation : undefined;
    if (!geo) {
      setUnavailable(true);
      return;
    }
    const id = geo.watchPosition(
      (p) => {
        setUnavailable(false);
        setPosition({ lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy, at: p.timestamp });
      },
      () => setUnavailable(true),
      { enableHighAccuracy: true, maximumAge: 30_000, timeout: 60_000 },
    );
    return () => geo.clearWatch(id);
  }, [consent]);
  const setConsent = (on: boolean) => {
    globalThis.localStorage?.setItem(CONSENT_KEY, on ? "on" : "off");
    setConsentState(on);
  };
  const fresh = position && Date.now() - position.at <= FRESH_MS ? position : null;
  return {
    consent,
    setConsent,
    /** the current position (with consent, when known and fresh) */
    position: fresh,
    unavailable: consent && unavailable,
    /** the stamp for a result recorded now */
    stamp: () => (fresh ? { lat: fresh.lat, lng: fresh.lng, accuracy: Math.round(fresh.accuracy) } : undefined),
  };
}
