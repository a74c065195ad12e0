/** Which text replies revoke consent (issue 39; the FCC's 2025 rule), and the one confirmation. */
import { describe, expect, test } from "vitest";
import { optOutConfirmation, optOutKeyword, providerConfirms } from "@convex/lib/sms/optOut";

/** reply → the opt-out it expresses (normalised), or null: not an opt-out. */
const CASES: [string, string | null][] = [
  // the rule's keywords, whole message, any case, punctuation, accents
  ["STOP", "STOP"],
  ["stop", "STOP"],
  [" Stop. ", "STOP"],
  ["STOP!!!", "STOP"],
  ["Stop please", "STOP"],
  ["Please stop", "STOP"],
  ["stop stop stop", "STOP"],
  ["STOPALL", "STOPALL"],
  ["stop all", "STOP ALL"],
  ["QUIT", "QUIT"],
  ["end", "END"],
  ["Revoke", "REVOKE"],
  ["opt out", "OPT OUT"],
  ["Opt-out", "OPT OUT"],
  ["OPTOUT", "OPTOUT"],
  ["cancel", "CANCEL"],
  ["Unsubscribe", "UNSUBSCRIBE"],
  ["unsubscribe, thanks", "UNSUBSCRIBE"],
  // Spanish
  ["PARA", "PARA"],
  ["para por favor", "PARA"],
  ["Alto", "ALTO"],
  ["¡Basta!", "BASTA"],
  ["cancelar", "CANCELAR"],
  ["Detener", "DETENER"],
  ["NO MÁS", "NO MAS"],
  ["no mas", "NO MAS"],
  ["Baja", "BAJA"],
  ["No me escriban más", "NO ME ESCRIBAN MAS"],
  ["Dejen de enviarme mensajes", "DEJEN DE ENVIARME MENSAJES"],
  ["darme de baja", "DARME DE BAJA"],
  // obvious opt-out sentences
  ["Stop texting me", "STOP TEXTING ME"],
  ["please stop texting me!", "STOP TEXTING ME"],
  ["STOP SENDING ME THESE", "STOP SENDING ME THESE"],
  ["Remove me from your list", "REMOVE ME FROM YOUR LIST"],
  ["don't text me", "DONT TEXT ME"],
  ["Don’t text me again", "DONT TEXT ME AGAIN"],
  ["do not contact me", "DO NOT CONTACT ME"],
  ["no more texts", "NO MORE TEXTS"],
  ["Unsubscribe me", "UNSUBSCRIBE ME"],
  ["take me off", "TAKE ME OFF"],
  ["Take me off your list please", "TAKE ME OFF YOUR LIST"],
  ["opt me out", "OPT ME OUT"],
  ["I want to unsubscribe", "I WANT TO UNSUBSCRIBE"],
  ["leave me alone", "LEAVE ME ALONE"],
  ["Wrong number", "WRONG NUMBER"],
  // not opt-outs: a keyword inside a longer message is ambiguous and stays a reply
  ["Stop by the office?", null],
  ["Don't stop", null],
  ["don't stop texting me updates, I love them", null],
  ["Cancel my appointment", null],
  ["Is this the end?", null],
  ["Para mí sí", null],
  ["Where do I vote?", null],
  ["Yes", null],
  ["START", null],
  ["No", null],
  ["", null],
  ["   ", null],
  ["!!!", null],
  ["Stopping by later", null],
  ["I will vote, stop worrying", null],
];

describe("optOutKeyword", () => {
  test.each(CASES)("%j → %j", (reply, expected) => {
    expect(optOutKeyword(reply)).toBe(expected);
  });

  test("a very long message is read from its start only", () => {
    expect(optOutKeyword(`stop texting me ${"x".repeat(5_000)}`)).toMatch(/^STOP TEXTING ME/);
    expect(optOutKeyword(`stop texting me ${"x".repeat(5_000)}`)!.length).toBeLessThanOrEqual(60);
  });
});

describe("the provider's own confirmation", () => {
  test("Twilio confirms its single-word keywords itself (exactly the word); not sentences or Spanish", () => {
    for (const w of ["STOP", "stop", " Stop ", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"])
      expect(providerConfirms(w)).toBe(true);
    for (const w of ["Stop please", "stop texting me", "PARA", "OPT OUT", "NO MAS", "remove me"])
      expect(providerConfirms(w)).toBe(false);
  });

  test("the confirmation names the organisations and how to resubscribe", () => {
    expect(optOutConfirmation(["Friends of Ada"])).toBe(
      "You have been unsubscribed from Friends of Ada texts. No more messages will be sent. Reply START to resubscribe.",
    );
  });
});
