// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/pins (signed-in users)
//
// Saves one of the caller's key pins and the new head of their pins in one transaction, or only the
// head (a device adopting pins saved before heads existed). Body:
//   {subject?, data?, head: {counter, data}}
// `counter` must be above the current head's (0 when there is none; a device may jump to above the
// highest it has seen): two devices saving the same next head cannot both win, the second gets 409
// and saves again over what the first wrote, and no head goes back. The server sees the counter; the
// pins and the head's digests are sealed in the browser.
routerAdd(
  "POST",
  "/api/chat/pins",
  (e) => {
    const { badRequest, conflict, invalidRecord } = require(`${__hooks}/lib/errors.js`);
    const { patterns, requireUser, readJsonObject, matching } = require(`${__hooks}/lib/request.js`);
    const SEALED = /^[A-Za-z0-9_-]+$/;
    const user = requireUser(e, "Not authenticated");
    const body = readJsonObject(e);
    const head = body.head;
    if (!head || typeof head !== "object" || Array.isArray(head)) throw badRequest("head must be an object.");
    const counter = head.counter;
    if (typeof counter !== "number" || !Number.isInteger(counter) || counter < 1)
      throw badRequest("head.counter must be a whole number from 1.");
    if (typeof head.data !== "string" || !SEALED.test(head.data)) throw badRequest("head.data must be sealed (base64url).");
    const pin =
      body.subject === undefined && body.data === undefined
        ? null
        : {
            subject: matching(body, "subject", patterns.userId, "subject must be a user id."),
            data: matching(body, "data", SEALED, "Key pins must be encrypted."),
          };

    e.app.runInTransaction((txApp) => {
      const heads = txApp.findCollectionByNameOrId("key_pin_heads");
      const current = txApp.findRecordsByFilter(heads, "owner = {:owner}", "", 1, 0, { owner: user.id })[0] || null;
      const currentCounter = current ? current.getInt("counter") : 0;
      if (counter <= currentCounter) throw conflict("Your key pins changed on another device. Please try again.");
      if (pin) {
        const pins = txApp.findCollectionByNameOrId("key_pins");
        const existing = txApp.findRecordsByFilter(pins, "owner = {:owner} && subject = {:subject}", "", 1, 0, {
          owner: user.id,
          subject: pin.subject,
        })[0];
        const record = existing || new Record(pins);
        record.set("owner", user.id);
        record.set("subject", pin.subject);
        record.set("data", pin.data);
        try {
          txApp.save(record);
        } catch (err) {
          throw invalidRecord(err, "This user's keys could not be saved.", { subject: "This user does not exist." });
        }
      }
      const record = current || new Record(heads);
      record.set("owner", user.id);
      record.set("counter", counter);
      record.set("data", head.data);
      try {
        txApp.save(record);
      } catch (err) {
        throw invalidRecord(err, "The key pins' head could not be saved.");
      }
    });
    return e.json(200, { counter });
  },
  $apis.bodyLimit(300 * 1024),
);
