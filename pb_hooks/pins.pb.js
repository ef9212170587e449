// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/pins (signed-in users)
//
// Saves some of the caller's key pins (up to 25: the users a device saw for the first time while the
// previous save ran) and the new head of their pins in one transaction, or only the head (a device
// adopting pins saved before heads existed). Body:
//   {pins?: [{subject, data}], head: {counter, data}}   (or one pin as {subject, data, head})
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
    const pinOf = (/** @type {any} */ value) => {
      if (!value || typeof value !== "object" || Array.isArray(value)) throw badRequest("Each pin must be an object.");
      return {
        subject: matching(value, "subject", patterns.userId, "subject must be a user id."),
        data: matching(value, "data", SEALED, "Key pins must be encrypted."),
      };
    };
    const listed = body.pins;
    if (listed !== undefined && (!Array.isArray(listed) || listed.length === 0 || listed.length > 25))
      throw badRequest("pins must list 1 to 25 pins.");
    if (listed !== undefined && (body.subject !== undefined || body.data !== undefined))
      throw badRequest("Send pins or one pin, not both.");
    const toSave = listed ? listed.map(pinOf) : body.subject === undefined && body.data === undefined ? [] : [pinOf(body)];
    if (new Set(toSave.map((/** @type {{ subject: string }} */ p) => p.subject)).size !== toSave.length)
      throw badRequest("Each user is pinned once per save.");

    e.app.runInTransaction((txApp) => {
      const heads = txApp.findCollectionByNameOrId("key_pin_heads");
      const current = txApp.findRecordsByFilter(heads, "owner = {:owner}", "", 1, 0, { owner: user.id })[0] || null;
      const currentCounter = current ? current.getInt("counter") : 0;
      if (counter <= currentCounter) throw conflict("Your key pins changed on another device. Please try again.");
      const pins = txApp.findCollectionByNameOrId("key_pins");
      for (const pin of toSave) {
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
