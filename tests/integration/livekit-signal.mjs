// A participant's signalling connection to the LiveKit server, as livekit-client opens it (no media):
// enough for LiveKit to count the participant in the room. Plain JS: `ws` ships no types.
import WebSocket from "ws";

/** Joins the room of `token` over LiveKit's signalling WebSocket; resolves with the open socket. */
export function joinSignal(url, token) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}/rtc?access_token=${encodeURIComponent(token)}&protocol=15&auto_subscribe=1&sdk=js`);
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
    socket.once("unexpected-response", (_request, response) => reject(new Error(`LiveKit answered ${response.statusCode}`)));
  });
}
