import { z } from "zod";

/** Schemas several features' requests share. */

/** An email address as a person types it (an overlong one is as invalid as a malformed one). */
export const emailAddress = z.string().trim().max(254, "Please enter a valid email address.").email("Please enter a valid email address.");

/** A PocketBase record id (a message's, here). */
export const recordId = z.string().regex(/^[a-z0-9]{15}$/, "Invalid message id.");

/** A sealed field: base64url of at most `max` characters. */
export const cipherText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Encrypted fields must be base64url.");

const AHEAD_MS = 10 * 60_000;
/**
 * A record's time as PocketBase writes it ("2026-12-01 09:00:00.000Z"): a real one (no 13th month, no
 * 25th hour), not before 2000 nor more than ten minutes ahead (times that only move forward, such as
 * read markers, would otherwise stick there).
 */
export const recordTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, "Invalid time.")
  .refine((at) => {
    const [date, time] = at.slice(0, 19).split(" ");
    const parsed = new Date(`${date}T${time}Z`);
    return (
      !Number.isNaN(parsed.getTime()) &&
      parsed.toISOString().slice(0, 19) === `${date}T${time}` &&
      parsed.getUTCFullYear() >= 2000 &&
      parsed.getTime() <= Date.now() + AHEAD_MS
    );
  }, "Invalid time.");
