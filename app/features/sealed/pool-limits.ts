/** This device's key-package pool (ADR 19, 47): refilled below LOW packages, renewed when the oldest nears MAX_AGE_DAYS. */
export const POOL = 10;
export const LOW = 4;
export const MAX_AGE_DAYS = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;
