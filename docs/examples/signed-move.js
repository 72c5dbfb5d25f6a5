// Signed moves from a browser, with Web Crypto's Ed25519 (docs/api.md, "Signed moves").
//
// A seat that joins with a public key must sign every move it sends. The signature is
// Ed25519 over the canonical JSON of {"game": <game id>, "version": <the version the move
// was decided on>, "move": <the move's JSON, exactly as GET .../legal-moves lists it>}.
// Keys and signatures travel as unpadded base64url.
//
// This file is the documented example itself: tests/e2e/test_signed_moves_browser.py loads
// it into a headless Chromium and runs signedMoveExample() against a real server.

// Canonical JSON as the service writes it: Python's
//   json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
// for the values moves are made of (objects, arrays, strings, integers, booleans, null).
// Keys are sorted by UTF-16 code unit, as Python sorts them for every key below U+E000.
function canonicalJson(value) {
  if (value === null || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new Error(`moves hold integers only, not ${value}`); // Python writes 1.0, not 1
    }
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    // JSON.stringify escapes '"', '\' and the control characters as Python does; Python
    // also escapes DEL and every non-ASCII UTF-16 code unit as \uXXXX (lowercase hex).
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
    );
  }
  if (Array.isArray(value)) {
    return "[" + value.map(canonicalJson).join(",") + "]";
  }
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    return "{" + keys.map((k) => canonicalJson(k) + ":" + canonicalJson(value[k])).join(",") + "}";
  }
  throw new Error(`not a JSON value: ${value}`);
}

// Unpadded base64url (RFC 4648, section 5) of bytes.
function b64url(bytes) {
  let text = "";
  for (const byte of bytes) {
    text += String.fromCharCode(byte);
  }
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// A new key pair for a seat. Keep privateKey for the whole game (a CryptoKey can be stored
// in IndexedDB as it is; `true` also lets you export it, as PKCS#8, to back it up — pass
// `false` to make that impossible); publicKey is sent once, with the join.
async function newPlayerKey() {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: b64url(raw) };
}

// The bytes a player signs for a move of gameId decided on version.
function signedMoveMessage(gameId, version, move) {
  return new TextEncoder().encode(canonicalJson({ game: gameId, version: version, move: move }));
}

// The signature to send with a move.
async function signMove(privateKey, gameId, version, move) {
  const message = signedMoveMessage(gameId, version, move);
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, privateKey, message);
  return b64url(new Uint8Array(signature));
}

async function call(method, url, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  const answer = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
  const json = await answer.json();
  if (!answer.ok) {
    throw new Error(`${answer.status} ${json.code}: ${json.detail}`);
  }
  return json;
}

// The whole flow: make a key, take a seat with it, then sign and send the first of the
// seat's legal moves once it is the seat's turn. base is the API's root, such as
// "http://127.0.0.1:8000/api/v1".
async function signedMoveExample(base, gameId, name) {
  const key = await newPlayerKey();
  const seat = await call("POST", `${base}/games/${gameId}/seats`, {
    name: name,
    public_key: key.publicKey,
  });
  let legal = await call("GET", `${base}/games/${gameId}/legal-moves`, null, seat.token);
  for (let wait = 0; legal.moves.length === 0 && wait < 100; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 100)); // not our turn yet
    legal = await call("GET", `${base}/games/${gameId}/legal-moves`, null, seat.token);
  }
  const move = legal.moves[0].move; // the move exactly as listed: that is what is signed
  const signature = await signMove(key.privateKey, gameId, legal.version, move);
  const played = await call(
    "POST",
    `${base}/games/${gameId}/moves`,
    { move: move, expected_version: legal.version, signature: signature },
    seat.token,
  );
  return { seat: seat.seat, token: seat.token, publicKey: key.publicKey, move, signature, played };
}
